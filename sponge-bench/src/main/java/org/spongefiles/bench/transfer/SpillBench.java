package org.spongefiles.bench.transfer;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bench.OneSpill;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.pool.PoolSpec;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.workloads.BenchReport;

/**
 * SpongeFiles Table 1 on this machine: the time to spill one 1 MiB buffer (and to read it back),
 * 10,000 times, to the shared pool and to local disk, beside the baselines measured in the same
 * run: a plain 1 MiB memcpy into a direct buffer for the pool, and a raw 1 MiB file write at a
 * random offset (as the paper did) for the disk.
 *
 * <p>Those spills reuse the same few pool chunks. A task writes each page of its chunks once in its
 * life, so the {@code pool-spill-first-touch} row spills {@code bench.first.touch} (256m) once into
 * a pool whose pages are allocated already (as the sponge server leaves them) and reads it back,
 * beside the same bytes copied in and out through a mapping of that pool made for the measure, as
 * tasks copied before they used positional writes: there every page costs the process a fault.
 *
 * <p>Properties: {@code bench.iterations} (10000), {@code bench.warmup} (2000), {@code
 * bench.first.touch} (256m), {@code bench.pool.dir} (/dev/shm), {@code bench.disk.dir}
 * (java.io.tmpdir). The disk rows alone, on a directory of the caller's choosing, are {@link
 * #diskRows}; {@code node.SpillClassBench} runs them on each emulated disk class.
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
    Timing[] firstTouch = firstTouchRound();
    Timing[] disk = diskRound();
    for (Timing t : memory) {
      BenchReport.info("%s", t.summary());
    }
    for (Timing t : firstTouch) {
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
    reportFirstTouch(firstTouch);
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

  /**
   * Three rounds of: one SpongeFile of {@code bench.first.touch} bytes written to the pool and read
   * back, then the same bytes copied in and out through a new mapping of the pool's segment. The
   * pool is touched whole first, through another mapping, so its pages exist for both.
   */
  private Timing[] firstTouchRound() throws IOException {
    int mib = (int) (ByteSize.parse(System.getProperty("bench.first.touch", "256m")) / MIB);
    Timing[] t = {
      new Timing("mapping-first-touch-write", 3 * mib),
      new Timing("mapping-first-touch-read", 3 * mib),
      new Timing("pool-first-touch-write", 3 * mib),
      new Timing("pool-first-touch-read", 3 * mib)
    };
    Configuration conf = new Configuration(false);
    conf.set("sponge.tiers", "pool");
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.name", "first-touch");
    conf.set("sponge.pool.size", mib + "m");
    conf.set("sponge.pool.segment.size", mib + "m");
    try (SpongeTask task = SpongeTask.open(conf, "attempt_spillbench_first_touch")) {
      try (SharedPool pool = SharedPool.open(poolSpec(mib))) {
        pool.touchAll(); // as the node's sponge server does at start
      }
      Path segment = onlySegment("first-touch");
      for (int round = 0; round < 3; round++) {
        SpongeFile file = task.create("first-touch");
        try (OutputStream out = file.output()) {
          for (int i = 0; i < mib; i++) {
            long t0 = System.nanoTime();
            out.write(source);
            t[2].add(System.nanoTime() - t0);
          }
        }
        try (SpongeInputStream in = file.input()) {
          for (int i = 0; i < mib; i++) {
            long t0 = System.nanoTime();
            in.readNBytes(target, 0, MIB);
            t[3].add(System.nanoTime() - t0);
          }
        }
        file.delete();
        check("pool, first touch");
        try (FileChannel channel =
            FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          MappedByteBuffer mapping =
              channel.map(FileChannel.MapMode.READ_WRITE, 0, (long) mib * MIB);
          for (int i = 0; i < mib; i++) {
            long t0 = System.nanoTime();
            mapping.position(i * MIB);
            mapping.put(source);
            t[0].add(System.nanoTime() - t0);
          }
          for (int i = 0; i < mib; i++) {
            long t0 = System.nanoTime();
            mapping.position(i * MIB);
            mapping.get(target);
            t[1].add(System.nanoTime() - t0);
          }
        }
        check("mapping, first touch");
      }
      requireTier(task, TierKind.POOL, 3L * mib);
    }
    return t;
  }

  private PoolSpec poolSpec(int mib) {
    return new PoolSpec(
        poolDir,
        "first-touch",
        (long) mib * MIB,
        MIB,
        (long) mib * MIB,
        false,
        "rw-------",
        Duration.ofSeconds(10));
  }

  private Path onlySegment(String name) throws IOException {
    try (Stream<Path> files = Files.list(poolDir)) {
      List<Path> segments =
          files
              // <name>.<pool id>.<segment>: not the metadata, the written extents or a key file
              .filter(
                  f ->
                      f.getFileName()
                          .toString()
                          .matches(Pattern.quote(name) + "\\.\\p{XDigit}+\\.\\d+"))
              .collect(Collectors.toList());
      if (segments.size() != 1) {
        throw new IOException("expected one segment of pool " + name + ": " + segments);
      }
      return segments.get(0);
    }
  }

  private static void reportFirstTouch(Timing[] t) {
    double mapping = t[0].meanMicros() + t[1].meanMicros();
    double ours = t[2].meanMicros() + t[3].meanMicros();
    BenchReport.bench(
        "pool-spill-first-touch",
        ours / mapping,
        String.format(
            Locale.ROOT,
            "per_mib_us ours_write=%.1f ours_read=%.1f mapping_write=%.1f mapping_read=%.1f"
                + " baseline=copy-through-a-new-mapping-of-allocated-pool-pages",
            t[2].meanMicros(),
            t[3].meanMicros(),
            t[0].meanMicros(),
            t[1].meanMicros()));
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
    SpongeFile file = OneSpill.write(task, source);
    long t1 = System.nanoTime();
    OneSpill.read(file, target);
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
    requireTier(task, tier, warmup + iterations);
  }

  private static void requireTier(SpongeTask task, TierKind tier, long spills) {
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
