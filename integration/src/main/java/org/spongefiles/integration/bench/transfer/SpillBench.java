package org.spongefiles.integration.bench.transfer;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.integration.bench.BenchReport;

/**
 * SpongeFiles Table 1 on this machine: the time to spill one 1 MiB buffer (and to read it back),
 * 10,000 times, to the shared pool and to local disk, beside the baselines measured in the same
 * run: a plain 1 MiB memcpy into a direct buffer for the pool, and a raw 1 MiB file write at a
 * random offset (as the paper did) for the disk.
 *
 * <p>Properties: {@code bench.iterations} (10000), {@code bench.warmup} (2000), {@code
 * bench.pool.dir} (/dev/shm), {@code bench.disk.dir} (java.io.tmpdir). The disk rows alone, on a
 * directory of the caller's choosing, are {@link #diskRows}; {@code node.SpillClassBench} runs them
 * on each emulated disk class.
 */
public final class SpillBench implements Closeable {
  private static final int MIB = 1 << 20;

  private final int iterations;
  private final int warmup;
  private final byte[] source = new byte[MIB];
  private final byte[] target = new byte[MIB];
  private final Path poolDir;
  private final Path diskDir;

  /**
   * A bench of {@code iterations} measured spills after {@code warmup} unmeasured ones, its disk
   * tier in a new directory under {@code diskParent}; {@link #close()} removes what it made.
   */
  public SpillBench(Path diskParent, int iterations, int warmup) throws IOException {
    this.iterations = iterations;
    this.warmup = warmup;
    new SplittableRandom(42).nextBytes(source);
    Path shm = Path.of(System.getProperty("bench.pool.dir", "/dev/shm"));
    poolDir =
        Files.createTempDirectory(
            Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")),
            "spillbench-pool-");
    diskDir = Files.createTempDirectory(diskParent, "spillbench-disk-");
  }

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    try (SpillBench bench =
        new SpillBench(
            Path.of(System.getProperty("bench.disk.dir", System.getProperty("java.io.tmpdir"))),
            Integer.getInteger("bench.iterations", 10_000),
            Integer.getInteger("bench.warmup", 2_000))) {
      bench.run();
    }
  }

  /**
   * The disk-write and disk-read rows alone, each beside a raw file write or read at a random
   * offset in the same directory, reported as {@code BENCH <prefix>disk-write} and {@code
   * <prefix>disk-read}.
   *
   * @return the timings: raw write, raw read, ours write, ours read
   */
  public Timing[] diskRows(String prefix) throws IOException {
    Timing[] disk = diskRound();
    for (Timing t : disk) {
      BenchReport.info("%s", t.summary());
    }
    reportDisk(prefix, disk);
    return disk;
  }

  private void reportDisk(String prefix, Timing[] disk) {
    report(prefix + "disk-write", disk[2], disk[0], "baseline=raw-file-write-at-random-offset");
    report(prefix + "disk-read", disk[3], disk[1], "baseline=raw-file-read-at-random-offset");
  }

  /** The 1 MiB of pseudo-random bytes every spill writes. */
  public byte[] chunk() {
    return source.clone();
  }

  /** A task spilling to the disk tier only, in this bench's disk directory. */
  public SpongeTask openDiskTask() throws IOException {
    return openTask("disk", false);
  }

  /** The directory the disk tier and the raw baseline file write to. */
  public Path diskDir() {
    return diskDir;
  }

  private void run() throws Exception {
    BenchReport.info(
        "1 MiB spills, %d iterations after %d warm-up; baseline and ours alternate in one loop",
        iterations, warmup);
    Timing[] memory = memoryRound();
    Timing[] disk = diskRound();
    for (Timing t : memory) {
      BenchReport.info("%s", t.summary());
    }
    for (Timing t : disk) {
      BenchReport.info("%s", t.summary());
    }
    BenchReport.info(
        "Table 1 (paper, 2014 hardware): local shared memory 1 ms, disk 25 ms per 1 MB spill;"
            + " here: pool %.3f ms, disk %.3f ms",
        memory[2].meanMicros() / 1000, disk[2].meanMicros() / 1000);
    report("pool-write", memory[2], memory[0], "checksum=off");
    report("pool-read", memory[3], memory[1], "checksum=off");
    report("pool-write-crc", memory[4], memory[0], "checksum=on");
    report("pool-read-crc", memory[5], memory[1], "checksum=on");
    reportDisk("", disk);
  }

  private static void report(String measure, Timing ours, Timing baseline, String details) {
    BenchReport.bench(
        measure,
        ours.ratioTo(baseline),
        String.format(
            Locale.ROOT,
            "ours_us=%.1f baseline_us=%.1f ours_median_us=%.1f baseline_median_us=%.1f %s",
            ours.meanMicros(),
            baseline.meanMicros(),
            ours.medianMicros(),
            baseline.medianMicros(),
            details));
  }

  /** memcpy into a direct buffer, the pool without and with checksums, in turn. */
  private Timing[] memoryRound() throws IOException {
    ByteBuffer direct = ByteBuffer.allocateDirect(MIB);
    Timing[] t = {
      new Timing("memcpy-write", iterations),
      new Timing("memcpy-read", iterations),
      new Timing("pool-write", iterations),
      new Timing("pool-read", iterations),
      new Timing("pool-crc-write", iterations),
      new Timing("pool-crc-read", iterations)
    };
    try (SpongeTask plain = openTask("pool", false);
        SpongeTask checked = openTask("pool", true)) {
      for (int i = 0; i < warmup + iterations; i++) {
        boolean measured = i >= warmup;
        long t0 = System.nanoTime();
        direct.clear();
        direct.put(source);
        long t1 = System.nanoTime();
        direct.flip();
        direct.get(target);
        long t2 = System.nanoTime();
        if (measured) {
          t[0].add(t1 - t0);
          t[1].add(t2 - t1);
        }
        if (i == warmup) {
          check("memcpy");
        }
        spill(plain, measured ? t[2] : null, measured ? t[3] : null, i == warmup);
        spill(checked, measured ? t[4] : null, measured ? t[5] : null, i == warmup);
      }
      requireTier(plain, TierKind.POOL);
      requireTier(checked, TierKind.POOL);
    }
    return t;
  }

  /** A raw file write and read at a random offset, and a disk-tier SpongeFile, in turn. */
  private Timing[] diskRound() throws IOException {
    Path file = diskDir.resolve("raw.bin");
    long slots = 1024; // a 1 GiB file of 1 MiB slots
    SplittableRandom random = new SplittableRandom(7);
    Timing[] t = {
      new Timing("raw-file-write", iterations),
      new Timing("raw-file-read", iterations),
      new Timing("disk-write", iterations),
      new Timing("disk-read", iterations)
    };
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
        SpongeTask disk = openTask("disk", false)) {
      raf.setLength(slots * MIB);
      for (int i = 0; i < warmup + iterations; i++) {
        boolean measured = i >= warmup;
        long slot = random.nextLong(slots);
        long t0 = System.nanoTime();
        raf.seek(slot * MIB);
        raf.write(source);
        long t1 = System.nanoTime();
        raf.seek(slot * MIB);
        raf.readFully(target);
        long t2 = System.nanoTime();
        if (measured) {
          t[0].add(t1 - t0);
          t[1].add(t2 - t1);
        }
        if (i == warmup) {
          check("raw file");
        }
        spill(disk, measured ? t[2] : null, measured ? t[3] : null, i == warmup);
      }
      requireTier(disk, TierKind.DISK);
    } finally {
      Files.deleteIfExists(file);
    }
    return t;
  }

  private SpongeTask openTask(String tier, boolean poolChecksum) throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("sponge.tiers", tier);
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.name", "bench");
    conf.set("sponge.pool.size", "64m");
    conf.setBoolean("sponge.pool.checksum", poolChecksum);
    conf.set("sponge.disk.dirs", diskDir.toString());
    return SpongeTask.open(conf, "attempt_spillbench_" + tier + (poolChecksum ? "_crc" : ""));
  }

  /** One spill: create a SpongeFile, write 1 MiB, close; read it back; delete it. */
  private void spill(SpongeTask task, Timing write, Timing read, boolean verify)
      throws IOException {
    long t0 = System.nanoTime();
    SpongeFile file = task.create("spill");
    try (OutputStream out = file.output()) {
      out.write(source);
    }
    long t1 = System.nanoTime();
    try (SpongeInputStream in = file.input()) {
      in.readNBytes(target, 0, MIB);
    }
    long t2 = System.nanoTime();
    file.delete();
    if (write != null) {
      write.add(t1 - t0);
      read.add(t2 - t1);
    }
    if (verify) {
      check(task.tiers().toString());
    }
  }

  private void requireTier(SpongeTask task, TierKind tier) {
    long spills = warmup + iterations;
    if (task.stats().chunksWritten(tier) != spills) {
      throw new AssertionError(
          "expected " + spills + " chunks in the " + tier.label() + " tier: " + task.stats());
    }
  }

  private void check(String what) {
    if (!Arrays.equals(source, target)) {
      throw new AssertionError(what + ": bytes read back differ from bytes written");
    }
    Arrays.fill(target, (byte) 0);
  }

  @Override
  public void close() throws IOException {
    org.apache.commons.io.FileUtils.deleteDirectory(poolDir.toFile());
    org.apache.commons.io.FileUtils.deleteDirectory(diskDir.toFile());
  }
}
