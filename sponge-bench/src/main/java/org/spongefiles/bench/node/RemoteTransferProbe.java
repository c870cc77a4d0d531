package org.spongefiles.bench.node;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bench.SocketReads;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.stats.SpongeStats;
import org.spongefiles.core.tier.TierKind;

/**
 * A task on an emulated node moving one SpongeFile of {@code <mib>} MiB to the remote tier and
 * reading it back (prefetch as configured, on by default), every byte verified, {@code <warmup>}
 * times unreported and then {@code <runs>} times; before each, the same bytes one stream each way
 * over a raw socket to a {@link LinkPeer} on the same shaped link ({@code -} for none). Runs inside
 * a node namespace; prints one {@code RUN} line per run (seconds) and a {@code RESULT} line with
 * the task's tier counters.
 *
 * <pre>
 * java ... RemoteTransferProbe &lt;mib&gt; &lt;warmup&gt; &lt;runs&gt; &lt;peer host:port | -&gt; [sponge.key=value ...]
 * </pre>
 */
public final class RemoteTransferProbe {
  private static final int MIB = 1 << 20;
  private static final int DATA_MIB = 64;

  private final byte[] data = new byte[DATA_MIB * MIB];
  private final int mib;

  private RemoteTransferProbe(int mib) {
    this.mib = mib;
    new SplittableRandom(11).nextBytes(data);
  }

  public static void main(String[] args) throws Exception {
    int mib = Integer.parseInt(args[0]);
    int warmup = Integer.parseInt(args[1]);
    int runs = Integer.parseInt(args[2]);
    String peer = args[3];
    Configuration conf = remoteTaskConf(args, 4);
    RemoteTransferProbe probe = new RemoteTransferProbe(mib);
    long expected = probe.expectedCrc();
    try (SpongeTask task = SpongeTask.open(conf, "attempt_remote_transfer_probe")) {
      for (int run = 1 - warmup; run <= runs; run++) {
        double[] raw = peer.equals("-") ? new double[] {0, 0} : probe.raw(peer);
        double[] ours = probe.ours(task, expected);
        if (run < 1) {
          continue;
        }
        System.out.printf(
            Locale.ROOT,
            "RUN %d raw_write_s=%.4f raw_read_s=%.4f ours_write_s=%.4f ours_read_s=%.4f%n",
            run,
            raw[0],
            raw[1],
            ours[0],
            ours[1]);
      }
      SpongeStats stats = task.stats();
      System.out.printf(
          Locale.ROOT,
          "RESULT runs=%d remote_chunks=%d remote_bytes=%d all_bytes=%d blocked_write_ms=%d"
              + " blocked_read_ms=%d%n",
          warmup + runs,
          stats.chunksWritten(TierKind.REMOTE),
          stats.bytesWritten(TierKind.REMOTE),
          stats.bytesWritten(),
          stats.blockedWriteNanos() / 1_000_000,
          stats.blockedReadNanos() / 1_000_000);
    }
  }

  /**
   * A task spilling to the remote tier only, with the {@code key=value} settings from {@code from}.
   */
  static Configuration remoteTaskConf(String[] args, int from) {
    Configuration conf = new Configuration(false);
    conf.set("sponge.tiers", "remote");
    for (int i = from; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.set(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    return conf;
  }

  private int offset(long mibIndex) {
    return (int) ((mibIndex * 7) % DATA_MIB) * MIB;
  }

  private long expectedCrc() {
    CRC32C crc = new CRC32C();
    for (int i = 0; i < mib; i++) {
      crc.update(data, offset(i), MIB);
    }
    return crc.getValue();
  }

  /** Seconds to write, then to read back, the SpongeFile; throws when the bytes differ. */
  private double[] ours(SpongeTask task, long expected) throws IOException {
    SpongeFile file = task.create("remote-transfer");
    long t0 = System.nanoTime();
    try (OutputStream out = file.output()) {
      for (int i = 0; i < mib; i++) {
        out.write(data, offset(i), MIB);
      }
    }
    long t1 = System.nanoTime();
    CRC32C crc = new CRC32C();
    byte[] block = new byte[MIB];
    long read = 0;
    try (SpongeInputStream in = file.input()) {
      int n;
      while ((n = in.read(block)) > 0) {
        crc.update(block, 0, n);
        read += n;
      }
    }
    long t2 = System.nanoTime();
    file.delete();
    if (read != (long) mib * MIB || crc.getValue() != expected) {
      throw new IOException(
          "read back "
              + read
              + " bytes with CRC32C "
              + crc.getValue()
              + ", wrote "
              + mib
              + " MiB with "
              + expected);
    }
    return new double[] {(t1 - t0) / 1e9, (t2 - t1) / 1e9};
  }

  /** Seconds to stream the same bytes to the peer, then to stream as many back. */
  private double[] raw(String peer) throws IOException {
    int colon = peer.lastIndexOf(':');
    InetSocketAddress address =
        new InetSocketAddress(
            peer.substring(0, colon), Integer.parseInt(peer.substring(colon + 1)));
    long bytes = (long) mib * MIB;
    try (SocketChannel channel = SocketChannel.open(address)) {
      ByteBuffer header = ByteBuffer.allocateDirect(9);
      ByteBuffer direct = ByteBuffer.allocateDirect(MIB);
      long t0 = System.nanoTime();
      header.clear();
      header.put((byte) 'W').putLong(bytes).flip();
      writeFully(channel, header);
      for (int i = 0; i < mib; i++) {
        direct.clear();
        direct.put(data, offset(i), MIB).flip();
        writeFully(channel, direct);
      }
      ByteBuffer ack = ByteBuffer.allocate(1);
      SocketReads.readFully(channel, ack);
      long t1 = System.nanoTime();
      header.clear();
      header.put((byte) 'R').putLong(bytes).flip();
      writeFully(channel, header);
      CRC32C crc = new CRC32C();
      byte[] block = new byte[MIB];
      for (int i = 0; i < mib; i++) {
        direct.clear();
        SocketReads.readFully(channel, direct);
        direct.flip().get(block);
        crc.update(block, 0, MIB);
      }
      long t2 = System.nanoTime();
      return new double[] {(t1 - t0) / 1e9, (t2 - t1) / 1e9};
    }
  }

  private static void writeFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }
}
