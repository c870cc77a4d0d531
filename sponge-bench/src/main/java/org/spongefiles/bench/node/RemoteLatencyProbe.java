package org.spongefiles.bench.node;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bench.OneSpill;
import org.spongefiles.bench.SocketReads;
import org.spongefiles.bench.transfer.Timing;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.stats.SpongeStats;
import org.spongefiles.core.tier.TierKind;

/**
 * SpongeFiles' Table 1 memory rows over a shaped rack link: a task on an emulated node spills one 1
 * MiB buffer {@code <iterations>} times (after {@code <warmup>} unreported) to the remote tier,
 * each spill a whole SpongeFile life (create, write, close, read back, delete; every byte
 * compared), beside a raw 1 MiB exchange with a {@link LinkPeer} on the same link over one kept
 * connection (1 MiB sent and its one-byte answer, then 1 MiB asked for and read), alternating in
 * one loop as {@code ServerBench} does on loopback. Runs inside a node namespace; prints one {@code
 * LATENCY} line per direction (microseconds) and a {@code RESULT} line with the task's tier
 * counters.
 *
 * <pre>
 * java ... RemoteLatencyProbe &lt;iterations&gt; &lt;warmup&gt; &lt;peer host:port&gt; [sponge.key=value ...]
 * </pre>
 */
public final class RemoteLatencyProbe {
  private static final int MIB = 1 << 20;

  private RemoteLatencyProbe() {}

  public static void main(String[] args) throws Exception {
    int iterations = Integer.parseInt(args[0]);
    int warmup = Integer.parseInt(args[1]);
    String peer = args[2];
    Configuration conf = RemoteTransferProbe.remoteTaskConf(args, 3);
    byte[] source = new byte[MIB];
    new SplittableRandom(13).nextBytes(source);
    byte[] target = new byte[MIB];
    Timing rawWrite = new Timing("raw-write", iterations);
    Timing rawRead = new Timing("raw-read", iterations);
    Timing oursWrite = new Timing("ours-write", iterations);
    Timing oursRead = new Timing("ours-read", iterations);
    try (SocketChannel raw = connect(peer);
        SpongeTask task = SpongeTask.open(conf, "attempt_remote_latency_probe")) {
      ByteBuffer header = ByteBuffer.allocateDirect(9);
      ByteBuffer direct = ByteBuffer.allocateDirect(MIB);
      ByteBuffer ack = ByteBuffer.allocateDirect(1);
      for (int i = 0; i < warmup + iterations; i++) {
        long t0 = System.nanoTime();
        header.clear();
        header.put((byte) 'W').putLong(MIB).flip();
        direct.clear();
        direct.put(source).flip();
        writeFully(raw, header, direct);
        ack.clear();
        SocketReads.readFully(raw, ack);
        long t1 = System.nanoTime();
        header.clear();
        header.put((byte) 'R').putLong(MIB).flip();
        writeFully(raw, header);
        direct.clear();
        SocketReads.readFully(raw, direct);
        direct.flip().get(target);
        long t2 = System.nanoTime();
        SpongeFile file = OneSpill.write(task, source);
        long t3 = System.nanoTime();
        Arrays.fill(target, (byte) 0);
        OneSpill.read(file, target);
        long t4 = System.nanoTime();
        file.delete();
        if (!Arrays.equals(source, target)) {
          throw new IOException("spill " + i + ": the bytes read back differ from those written");
        }
        if (i >= warmup) {
          rawWrite.add(t1 - t0);
          rawRead.add(t2 - t1);
          oursWrite.add(t3 - t2);
          oursRead.add(t4 - t3);
        }
      }
      print("write", oursWrite, rawWrite);
      print("read", oursRead, rawRead);
      SpongeStats stats = task.stats();
      System.out.printf(
          Locale.ROOT,
          "RESULT spills=%d remote_bytes=%d all_bytes=%d%n",
          warmup + iterations,
          stats.bytesWritten(TierKind.REMOTE),
          stats.bytesWritten());
    }
  }

  private static SocketChannel connect(String peer) throws IOException {
    int colon = peer.lastIndexOf(':');
    SocketChannel channel =
        SocketChannel.open(
            new InetSocketAddress(
                peer.substring(0, colon), Integer.parseInt(peer.substring(colon + 1))));
    channel.socket().setTcpNoDelay(true);
    return channel;
  }

  private static void print(String direction, Timing ours, Timing raw) {
    System.out.printf(
        Locale.ROOT,
        "LATENCY direction=%s ours_us=%.1f raw_socket_us=%.1f ours_median_us=%.1f"
            + " raw_median_us=%.1f ours_p99_us=%.1f raw_p99_us=%.1f%n",
        direction,
        ours.meanMicros(),
        raw.meanMicros(),
        ours.medianMicros(),
        raw.medianMicros(),
        ours.percentileMicros(99),
        raw.percentileMicros(99));
  }

  private static void writeFully(SocketChannel channel, ByteBuffer... buffers) throws IOException {
    while (buffers[buffers.length - 1].hasRemaining()) {
      channel.write(buffers);
    }
  }
}
