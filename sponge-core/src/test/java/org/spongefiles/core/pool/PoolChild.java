package org.spongefiles.core.pool;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.RandomBytes;

/**
 * A separate process using a pool, for the cross-process tests. Modes:
 *
 * <ul>
 *   <li>{@code open <dir> <name>}: opens (or creates) the pool, prints {@code OPENED <pool id>}.
 *   <li>{@code churn <dir> <name> <iterations> <seed>}: allocates and frees chunks at random,
 *       stamping each chunk it gets with its pid and the chunk index, then prints {@code LEASE
 *       <lease id in hex>} and {@code HELD index:generation ...} and exits.
 *   <li>{@code fill <dir> <name> <chunks>}: allocates chunks, writes every byte of each with {@link
 *       #pattern}, prints {@code FILLED index ...} and waits to be killed.
 *   <li>{@code hold <dir> <name> <chunks>}: allocates chunks, then takes the pool lock and keeps
 *       it; prints {@code READY <chunks> <lease id in hex>} and waits to be killed.
 *   <li>{@code keep <dir> <name> <chunks>}: prints {@code PID <its pid>}, allocates chunks and
 *       fills them with random bytes, prints {@code KEPT <lease id in hex> <sha-256 in hex>}, then
 *       answers each input line {@code VERIFY} with {@code VERIFIED <sha-256 of the chunks read
 *       back now>} until its input ends.
 * </ul>
 */
public final class PoolChild {
  /**
   * The pool every child and the tests that start it open: 64 MiB of 64 KiB chunks in {@code dir}.
   */
  static PoolSpec spec(Path dir, String name) {
    return new PoolSpec(
        dir, name, 64L << 20, 64 << 10, 16L << 20, true, "rw-------", Duration.ofSeconds(20));
  }

  public static void main(String[] args) throws Exception {
    PoolSpec spec = spec(Path.of(args[1]), args[2]);
    switch (args[0]) {
      case "open":
        try (SharedPool pool = SharedPool.open(spec)) {
          System.out.println("OPENED " + pool.poolId());
        }
        break;
      case "churn":
        churn(spec, Integer.parseInt(args[3]), Long.parseLong(args[4]));
        break;
      case "fill":
        fill(spec, Integer.parseInt(args[3]));
        break;
      case "hold":
        hold(spec, Integer.parseInt(args[3]));
        break;
      case "keep":
        keep(spec, Integer.parseInt(args[3]));
        break;
      default:
        throw new IllegalArgumentException(args[0]);
    }
    System.out.flush();
  }

  private static void churn(PoolSpec spec, int iterations, long seed) throws Exception {
    int pid = ProcessLiveness.currentPid();
    Lease lease = LeaseDirectory.beside(spec.dir()).processLease();
    ChunkOwner owner = ChunkOwner.of(lease, "churn-" + pid);
    SplittableRandom random = new SplittableRandom(seed);
    List<PoolChunk> held = new ArrayList<>();
    try (SharedPool pool = SharedPool.open(spec)) {
      for (int i = 0; i < iterations; i++) {
        if (held.isEmpty() || random.nextInt(3) > 0) {
          for (PoolChunk chunk : pool.allocate(owner, 1 + random.nextInt(4))) {
            ByteBuffer bytes = pool.chunkBuffer(chunk.index());
            bytes.putInt(0, pid);
            bytes.putInt(4, chunk.index());
            bytes.putLong(8, chunk.generation());
            held.add(chunk);
          }
        } else {
          List<PoolChunk> freeing = new ArrayList<>();
          int n = 1 + random.nextInt(held.size());
          for (int k = 0; k < n; k++) {
            freeing.add(held.remove(random.nextInt(held.size())));
          }
          int freed = pool.free(owner, freeing);
          if (freed != freeing.size()) {
            throw new AssertionError("freed " + freed + " of " + freeing.size() + " own chunks");
          }
        }
      }
      System.out.println("LEASE " + Long.toHexString(lease.id()));
      StringBuilder line = new StringBuilder("HELD");
      for (PoolChunk chunk : held) {
        line.append(' ').append(chunk.index()).append(':').append(chunk.generation());
      }
      System.out.println(line);
    }
  }

  /** The byte {@code fill} writes at {@code offset} of chunk {@code chunk}: never 0. */
  static byte pattern(int chunk, int offset) {
    return (byte) (0x80 | ((chunk * 31 + offset) & 0x7f));
  }

  private static void fill(PoolSpec spec, int chunks) throws Exception {
    SharedPool pool = SharedPool.open(spec);
    StringBuilder line = new StringBuilder("FILLED");
    for (PoolChunk chunk :
        pool.allocate(ChunkOwner.of(pool.leases().processLease(), "filler"), chunks)) {
      ByteBuffer bytes = ByteBuffer.allocate(pool.chunkSize());
      for (int i = 0; i < bytes.capacity(); i++) {
        bytes.put(i, pattern(chunk.index(), i));
      }
      pool.write(chunk.index(), 0, bytes);
      line.append(' ').append(chunk.index());
    }
    System.out.println(line);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  private static void keep(PoolSpec spec, int chunks) throws Exception {
    System.out.println("PID " + ProcessLiveness.currentPid());
    try (SharedPool pool = SharedPool.open(spec)) {
      Lease lease = pool.leases().processLease();
      List<PoolChunk> got = pool.allocate(ChunkOwner.of(lease, "keeper"), chunks);
      if (got.size() != chunks) {
        throw new AssertionError("got " + got.size() + " of " + chunks + " chunks");
      }
      byte[] bytes = RandomBytes.array(7, pool.chunkSize());
      for (PoolChunk chunk : got) {
        bytes[0] = (byte) chunk.index();
        pool.write(chunk.index(), 0, ByteBuffer.wrap(bytes));
      }
      System.out.println("KEPT " + Long.toHexString(lease.id()) + " " + digest(pool, got));
      System.out.flush();
      ChildJvm.answerVerify(() -> digest(pool, got));
    }
  }

  /** SHA-256 over every byte of {@code chunks}, in order, read back from the pool. */
  private static String digest(SharedPool pool, List<PoolChunk> chunks) throws Exception {
    MessageDigest sha = RandomBytes.sha256();
    ByteBuffer buffer = ByteBuffer.allocate(pool.chunkSize());
    for (PoolChunk chunk : chunks) {
      buffer.clear();
      pool.read(chunk.index(), 0, buffer);
      if (!pool.isCurrent(chunk)) {
        throw new AssertionError("chunk " + chunk + " was taken from this live process");
      }
      sha.update(buffer.flip());
    }
    return String.format("%064x", new BigInteger(1, sha.digest()));
  }

  private static void hold(PoolSpec spec, int chunks) throws Exception {
    SharedPool pool = SharedPool.open(spec);
    Lease lease = pool.leases().processLease();
    List<PoolChunk> got = pool.allocate(ChunkOwner.of(lease, "holder"), chunks);
    if (got.size() != chunks) {
      throw new AssertionError("got " + got.size() + " chunks");
    }
    try (FileChannel channel =
        FileChannel.open(spec.metadataFile(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      MappedByteBuffer meta =
          channel.map(FileChannel.MapMode.READ_WRITE, 0, PoolLayout.HEADER_SIZE);
      meta.order(ByteOrder.nativeOrder());
      MappedWords words = new MappedWords(meta);
      while (!words.casLong(PoolLayout.OFF_LOCK, 0, lease.id())) {
        Thread.onSpinWait();
      }
    }
    System.out.println("READY " + got.size() + " " + Long.toHexString(lease.id()));
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
