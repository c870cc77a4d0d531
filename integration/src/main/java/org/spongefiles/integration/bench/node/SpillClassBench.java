package org.spongefiles.integration.bench.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.integration.bench.BenchReport;
import org.spongefiles.integration.bench.transfer.SpillBench;

/**
 * SpillBench's disk rows on each emulated {@link DiskClass}, and the disk tier's read-back
 * bandwidth there. Per class: {@link SpillBench#diskRows} on the class's disk ({@code BENCH
 * spill-<class>-disk-write} and {@code -disk-read}, ours / a raw file write or read at a random
 * offset on the same disk, lower is better); then one SpongeFile of {@code bench.spill.mib} 1 MiB
 * chunks written to the disk tier beside a raw file of the same bytes, every cached page of the
 * disk dropped before each read, both read sequentially in 1 MiB reads, the SpongeFile through its
 * input stream with prefetch ({@code BENCH spill-<class>-readback}, ours / raw bandwidth, median of
 * {@code bench.spill.runs} runs, higher is better, target >= 0.8). Without root (or without loop
 * devices and blkio) it prints one NOT RUN line per missing piece.
 *
 * <p>Properties: {@code bench.disk.classes} (hdd,sata-ssd,nvme), {@code bench.spill.iterations}
 * (1000) and {@code bench.spill.warmup} (200) spills per disk row, {@code bench.spill.mib} (256),
 * {@code bench.spill.runs} (3), {@code bench.node.dir} (java.io.tmpdir, where the images go).
 */
public final class SpillClassBench {
  private static final int MIB = 1 << 20;
  private static final double MB = 1e6;

  private final int iterations = Integer.getInteger("bench.spill.iterations", 1000);
  private final int warmup = Integer.getInteger("bench.spill.warmup", 200);
  private final int mib = Integer.getInteger("bench.spill.mib", 256);
  private final int runs = Integer.getInteger("bench.spill.runs", 3);
  private final Path imageDir =
      Path.of(System.getProperty("bench.node.dir", System.getProperty("java.io.tmpdir")));

  private SpillClassBench() {}

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    EmulatorSupport support = EmulatorSupport.probe();
    if (!support.has(EmulatorSupport.Piece.DISK_CLASSES)) {
      for (String line : support.missing()) {
        BenchReport.info("NOT RUN: %s", line);
      }
      BenchReport.info("NOT RUN: the per-class spill rows (they need emulated disks)");
      return;
    }
    StaleResources.clean().forEach(line -> BenchReport.info("removed stale %s", line));
    SpillClassBench bench = new SpillClassBench();
    for (String label : NodeSweep.list("bench.disk.classes", "hdd,sata-ssd,nvme")) {
      bench.measure(DiskClass.of(label));
    }
  }

  private void measure(DiskClass diskClass) throws IOException {
    long imageBytes = (2L << 30) + 3L * mib * MIB;
    try (EmulatedDisk disk =
            EmulatedDisk.create(diskClass, "spill-" + diskClass.label, imageBytes, imageDir);
        SpillBench spill = new SpillBench(disk.mount, iterations, warmup)) {
      BenchReport.info(
          "%s on %s: %d 1 MiB spills after %d warm-up, then read-back of %d MiB x %d runs",
          diskClass.describe(), disk.device(), iterations, warmup, mib, runs);
      String prefix = "spill-" + diskClass.label + "-";
      spill.diskRows(prefix);
      readBack(disk, spill, prefix + "readback");
    }
  }

  /** The disk tier's sequential read-back with prefetch against a raw read of the same bytes. */
  private void readBack(EmulatedDisk disk, SpillBench spill, String measure) throws IOException {
    byte[] chunk = spill.chunk();
    Path raw = spill.diskDir().resolve("readback-raw.bin");
    List<Double> rawSeconds = new ArrayList<>();
    List<Double> oursSeconds = new ArrayList<>();
    try (SpongeTask task = spill.openDiskTask()) {
      SpongeFile file = task.create("readback");
      try (OutputStream out = file.output();
          OutputStream rawOut = Files.newOutputStream(raw)) {
        for (int i = 0; i < mib; i++) {
          out.write(chunk);
          rawOut.write(chunk);
        }
      }
      for (int run = 0; run < runs; run++) {
        disk.dropFileCaches();
        try (InputStream in = Files.newInputStream(raw)) {
          rawSeconds.add(readAll(in, chunk, "raw file"));
        }
        disk.dropFileCaches();
        try (InputStream in = file.input()) {
          oursSeconds.add(readAll(in, chunk, "SpongeFile"));
        }
      }
      file.delete();
    } finally {
      Files.deleteIfExists(raw);
    }
    List<Double> ratios = RemoteTierBench.ratios(rawSeconds, oursSeconds);
    double megabytes = (double) mib * MIB / MB;
    double rawMedian = megabytes / RemoteTierBench.median(rawSeconds);
    double oursMedian = megabytes / RemoteTierBench.median(oursSeconds);
    BenchReport.info("%s seconds per run: raw %s, ours %s", measure, rawSeconds, oursSeconds);
    BenchReport.bench(
        measure,
        RemoteTierBench.median(ratios),
        String.format(
            Locale.ROOT,
            "ours_mb_s=%.0f raw_mb_s=%.0f mib=%d runs=%d ratio_min=%.3f ratio_max=%.3f"
                + " baseline=raw-sequential-read-cold-cache prefetch=on target>=0.8",
            oursMedian,
            rawMedian,
            mib,
            runs,
            Collections.min(ratios),
            Collections.max(ratios)));
  }

  /** Reads {@code in} to its end in 1 MiB reads, each checked against {@code chunk}; seconds. */
  private double readAll(InputStream in, byte[] chunk, String what) throws IOException {
    byte[] buffer = new byte[MIB];
    long bytes = 0;
    long start = System.nanoTime();
    int read;
    while ((read = in.readNBytes(buffer, 0, MIB)) > 0) {
      if (read != MIB || !Arrays.equals(buffer, chunk)) {
        throw new AssertionError(
            what + ": bytes read back at offset " + bytes + " differ from the bytes written");
      }
      bytes += read;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (bytes != (long) mib * MIB) {
      throw new AssertionError(what + ": read " + bytes + " bytes, wrote " + (long) mib * MIB);
    }
    return seconds;
  }
}
