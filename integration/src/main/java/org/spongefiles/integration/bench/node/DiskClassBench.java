package org.spongefiles.integration.bench.node;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Random;
import org.spongefiles.integration.bench.BenchReport;

/**
 * Each {@link DiskClass} measured raw, beside the SpongeFiles paper's Table 1 disk rows (a 1 MB
 * spill: 25 ms alone, 174 ms with background I/O, 499 ms with background I/O and memory pressure):
 * the mean time of a 1 MiB write at a random offset followed by fsync, alone, with one and with
 * three {@link Neighbours}, and the disk's sequential read bandwidth with a cold cache.
 *
 * <p>Our third row has three neighbours where the paper had its background I/O plus a process
 * pinning memory; and blkio throttles reads and writes apart, so reader neighbours slow writes less
 * than a shared disk head would (see {@link EmulatedDisk}).
 *
 * <p>Properties: {@code bench.disk.classes} (hdd,sata-ssd,nvme), {@code bench.disk.writes} (40 per
 * row), {@code bench.disk.dir} (java.io.tmpdir, where the images go).
 */
public final class DiskClassBench {
  private static final int MIB = 1 << 20;
  private static final long FILE_BYTES = 256L << 20;
  private static final int[] LEVELS = {0, 1, 3};
  private static final int[] PAPER_MS = {25, 174, 499};
  private static final String[] PAPER_ROW = {
    "disk", "disk with background IO", "disk with background IO and memory pressure"
  };

  private DiskClassBench() {}

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    EmulatorSupport support = EmulatorSupport.probe();
    support.missing().forEach(line -> BenchReport.info("SKIPPED %s", line));
    if (!support.has(EmulatorSupport.Piece.DISK_CLASSES)
        || !support.has(EmulatorSupport.Piece.CONTAINERS)) {
      BenchReport.info("no disk classes here; nothing measured");
      return;
    }
    StaleResources.clean().forEach(line -> BenchReport.info("removed stale %s", line));
    int writes = Integer.getInteger("bench.disk.writes", 40);
    Path dir = Path.of(System.getProperty("bench.disk.dir", System.getProperty("java.io.tmpdir")));
    for (String label : System.getProperty("bench.disk.classes", "hdd,sata-ssd,nvme").split(",")) {
      DiskClass diskClass = DiskClass.of(label);
      try (EmulatedDisk disk = EmulatedDisk.create(diskClass, diskClass.label, 2L << 30, dir)) {
        measure(disk, writes);
      }
    }
  }

  private static void measure(EmulatedDisk disk, int writes) throws IOException {
    Path file = disk.mount.resolve("raw.dat");
    Neighbours.fill(file, FILE_BYTES);
    BenchReport.info("%s on %s (%s):", disk.diskClass.describe(), disk.device(), disk.majorMinor());
    for (int i = 0; i < LEVELS.length; i++) {
      double ms;
      String load;
      try (Neighbours neighbours = Neighbours.start(disk, LEVELS[i])) {
        ms = writeMillis(file, writes);
        load = neighbours.describe();
      }
      BenchReport.bench(
          "disk-" + disk.diskClass.label + "-write-" + LEVELS[i],
          ms / PAPER_MS[i],
          String.format(
              Locale.ROOT,
              "write_1mib_fsync_ms=%.1f paper_ms=%d (paper row: %s) load=\"%s\"",
              ms,
              PAPER_MS[i],
              PAPER_ROW[i],
              load));
    }
    disk.dropCache();
    double mbPerSecond = readMbPerSecond(file);
    BenchReport.info(
        "  %s sequential read, cold cache: %.0f MB/s (%d MiB)",
        disk.diskClass.label, mbPerSecond, FILE_BYTES >> 20);
  }

  /** Mean milliseconds of a 1 MiB write at a random MiB offset followed by fsync. */
  private static double writeMillis(Path file, int writes) throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(MIB);
    Random random = new Random(writes);
    long total = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      for (int i = 0; i < writes; i++) {
        long offset = (long) random.nextInt((int) (FILE_BYTES / MIB)) * MIB;
        block.clear();
        long start = System.nanoTime();
        while (block.hasRemaining()) {
          channel.write(block, offset + block.position());
        }
        channel.force(false);
        total += System.nanoTime() - start;
      }
    }
    return total / 1e6 / writes;
  }

  private static double readMbPerSecond(Path file) throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(MIB);
    long bytes = 0;
    long start = System.nanoTime();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      int read;
      while ((read = channel.read(block)) > 0) {
        bytes += read;
        block.clear();
      }
    }
    return bytes / 1e6 / ((System.nanoTime() - start) / 1e9);
  }
}
