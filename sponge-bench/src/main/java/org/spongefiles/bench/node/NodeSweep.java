package org.spongefiles.bench.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.spongefiles.bench.median.MedianBench;
import org.spongefiles.bench.median.MedianMeasure;
import org.spongefiles.bench.median.MedianPlacement;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.emulator.DiskClass;
import org.spongefiles.emulator.EmulatedDisk;
import org.spongefiles.emulator.EmulatorSupport;
import org.spongefiles.emulator.MemoryContainer;
import org.spongefiles.emulator.Neighbours;
import org.spongefiles.emulator.RackNetwork;
import org.spongefiles.emulator.RackServices;
import org.spongefiles.emulator.StaleResources;
import org.spongefiles.emulator.Teardown;
import org.spongefiles.workloads.BenchReport;

/**
 * The median job on emulated nodes: {nvme, sata-ssd, hdd} x {quiet, contended (three {@link
 * Neighbours})} x {memory abundant, scarce (a {@link MemoryContainer} leaving the page cache {@code
 * bench.node.cache.abundant} or {@code bench.node.cache.scarce})}, stock and ours {@code
 * bench.node.runs} times per cell; one {@code BENCH median-<disk>-<load>-<memory>} line per cell
 * with the median ratio ours/stock of the reduce phase and its min-max, a markdown table and one
 * PNG per disk class in {@code bench.node.out}. The data is scaled down (bench.median.* defaults
 * below) so the sweep runs in minutes. Then the remote cells: the reducer on a rack node, memory
 * scarce and its pool small, spilling to another node's server over the rack link, per disk class
 * ({@code bench.node.remote.disks}, hdd), link speed ({@code bench.node.remote.links}, 1g,10g;
 * empty: none), load ({@code bench.node.remote.loads}, quiet,contended) and write overflow ({@code
 * bench.node.remote.overflow}: on, the default, and/or off; {@code bench.node.remote.settings},
 * {@code key=value;...}, sets anything else for ours there), with {@code bench.node.remote.pool}
 * (32m) and {@code bench.node.remote.lender} (1g); and {@link RemoteTierBench}'s rows: the remote
 * tier over shaped 1 and 10 Gb/s rack links ({@code bench.remote.*}). Without root it runs the nvme
 * row in a plain directory and says in one line per missing piece why the rest did not run. In
 * every cell also the paper's two Pig queries, stock Pig against the recipe ({@link PigNodeCells}:
 * {@code BENCH pig-<query>-<disk>-<load>-<memory>}, pig-sweep.md, one PNG per query and disk
 * class).
 *
 * <p>Properties: {@code bench.node.disks} (hdd,sata-ssd,nvme: the most telling first), {@code
 * bench.node.loads} (quiet,contended), {@code bench.node.memory} (abundant,scarce), {@code
 * bench.node.runs} (3), {@code bench.node.heap} (384m) and {@code bench.node.direct} (64m) of each
 * run's JVM, {@code bench.node.median.overhead} (64m, a median run's JVM memory beyond heap and
 * direct; see {@link #containerLimit(String)}), {@code bench.node.overhead} (320m, the same for a
 * Pig run's JVM, whose container does not bind: its spills are small), {@code
 * bench.node.cache.abundant} (2g), {@code bench.node.cache.scarce} (32m), {@code bench.node.out}
 * (../docs/results/node-sweep, relative to integration/ where the bench profile runs), {@code
 * bench.node.dir} (java.io.tmpdir, where the disk images go), {@code bench.node.parts} (median,pig:
 * the median job's cells, including the remote cell, and the Pig cells), PigNodeCells' {@code
 * bench.node.pig.*}; and MedianBench's, whose defaults here are 8,000,000 numbers in 8 files, a 64m
 * reduce heap, sort.mb 64, a 512m pool and no sponge server.
 */
public final class NodeSweep {
  private static final String MEDIAN_OVERHEAD = "bench.node.median.overhead";
  private static final String MEDIAN_OVERHEAD_DEFAULT = "64m";
  private final List<String> disks = list("bench.node.disks", "hdd,sata-ssd,nvme");
  private final List<String> loads = list("bench.node.loads", "quiet,contended");
  private final List<String> memories = list("bench.node.memory", "abundant,scarce");
  private final int runs = Integer.getInteger("bench.node.runs", 3);
  private final long heap = size("bench.node.heap", "384m");
  private final long direct = size("bench.node.direct", "64m");
  private final long overhead = size(MEDIAN_OVERHEAD, MEDIAN_OVERHEAD_DEFAULT);
  private final Path out =
      Path.of(System.getProperty("bench.node.out", "../docs/results/node-sweep"));
  private final Path imageDir =
      Path.of(System.getProperty("bench.node.dir", System.getProperty("java.io.tmpdir")));
  private final List<String> parts = list("bench.node.parts", "median,pig");
  private final Map<String, String> remoteSettings =
      RackPlacement.settings(
          "bench.node.remote.settings", System.getProperty("bench.node.remote.settings", ""));
  private final PigNodeCells pig = new PigNodeCells(runs, out, imageDir);
  private final List<NodeCell> cells = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    defaults();
    NodeSweep sweep = new NodeSweep();
    MedianBench bench = new MedianBench();
    BenchReport.info("median job, scaled down: %s", bench.describe());
    boolean failed = sweep.run(bench);
    System.exit(failed ? 1 : 0);
  }

  static void defaults() {
    String[][] defaults = {
      {"bench.median.numbers", "8000000"},
      {"bench.median.files", "8"},
      {"bench.median.reduce.heap", "64m"},
      {"bench.median.sort.mb", "64"},
      {"bench.median.pool", "512m"},
      {"bench.median.remote", "0"},
      // The heap touched whole at start, as a long-running task's is: the JVM's resident size,
      // and so the page cache its container leaves, does not depend on how far the GC happened to
      // grow the heap (380 to 470 MB without this).
      {
        "bench.median.jvm",
        "-Xms"
            + System.getProperty("bench.node.heap", "384m")
            + " -Xmx"
            + System.getProperty("bench.node.heap", "384m")
            + " -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize="
            + System.getProperty("bench.node.direct", "64m")
      },
    };
    for (String[] pair : defaults) {
      if (System.getProperty(pair[0]) == null) {
        System.setProperty(pair[0], pair[1]);
      }
    }
  }

  private boolean run(MedianBench bench) throws Exception {
    EmulatorSupport support = EmulatorSupport.probe();
    for (String line : support.missing()) {
      BenchReport.info("NOT RUN: %s", line);
      notes.add("Not run here: " + line);
    }
    boolean disksHere = support.has(EmulatorSupport.Piece.DISK_CLASSES);
    boolean containersHere = support.has(EmulatorSupport.Piece.CONTAINERS);
    if (disksHere || containersHere) {
      StaleResources.clean().forEach(line -> BenchReport.info("removed stale %s", line));
    }
    for (String label : disks) {
      DiskClass diskClass = DiskClass.of(label);
      if (!disksHere && diskClass != DiskClass.NVME) {
        BenchReport.info("NOT RUN: the %s rows (no disk classes on this host)", label);
        continue;
      }
      EmulatedDisk disk =
          disksHere ? EmulatedDisk.create(diskClass, diskClass.label, 6L << 30, imageDir) : null;
      try {
        Path root =
            disk != null
                ? disk.mount
                : Files.createDirectories(imageDir.resolve(Teardown.prefix() + "nvme"));
        if (disk != null) {
          BenchReport.info("%s on %s", diskClass.describe(), disk.device());
        }
        sweepDisk(bench, diskClass, disk, root, containersHere);
      } finally {
        if (disk != null) {
          disk.close();
        } else {
          StaleResources.deleteTree(imageDir.resolve(Teardown.prefix() + "nvme"));
        }
      }
    }
    if (support.has(EmulatorSupport.Piece.RACK_NETWORK)) {
      remoteCells(bench, disksHere, containersHere);
    } else {
      BenchReport.info("NOT RUN: the remote cells (no rack network on this host)");
    }
    report(bench);
    if (support.has(EmulatorSupport.Piece.RACK_NETWORK)) {
      StaleResources.clean().forEach(line -> BenchReport.info("removed stale %s", line));
      new RemoteTierBench().run();
    } else {
      BenchReport.info("NOT RUN: the remote-tier rows (no rack network on this host)");
    }
    return bench.mismatch() || pig.recipeFailedWhereStockFinished();
  }

  private void sweepDisk(
      MedianBench bench, DiskClass diskClass, EmulatedDisk disk, Path root, boolean containers)
      throws Exception {
    List<NodeCell> ofDisk = new ArrayList<>();
    for (String load : loads) {
      int level = load.equals("contended") ? 3 : 0;
      if (level > 0 && (disk == null || !containers)) {
        BenchReport.info(
            "NOT RUN: %s-%s (neighbours need disk classes and containers)", diskClass.label, load);
        continue;
      }
      try (Neighbours neighbours = disk != null ? Neighbours.start(disk, level) : null) {
        for (String memory : memories) {
          if (!containers && memory.equals("scarce")) {
            BenchReport.info("NOT RUN: %s-%s-scarce (no memory containers)", diskClass.label, load);
            continue;
          }
          if (parts.contains("median")) {
            NodeCell cell = new NodeCell(diskClass.label, load, memory);
            measure(
                bench, cell, root, containers, neighbours, containerLimit(memory), node -> node);
            ofDisk.add(cell);
          }
          if (parts.contains("pig")) {
            pig.measure(
                diskClass.label,
                load,
                memory,
                root,
                containers,
                neighbours,
                containerLimit(pig.heapBytes(), memory));
          }
        }
      }
    }
    cells.addAll(ofDisk);
    if (!ofDisk.isEmpty()) {
      Files.createDirectories(out);
      BenchReport.info("plot: %s", NodePlot.draw(diskClass.label, ofDisk, out));
    }
    pig.plot(diskClass.label);
    figures(diskClass.label, ofDisk);
  }

  /**
   * The paper's Figures 4 (no contention) and 5 (contention) for one disk class: every job (the
   * median job and the Pig queries) under each memory condition, ours / stock.
   */
  private void figures(String disk, List<NodeCell> medianCells) throws IOException {
    String[][] figures = {{"quiet", "4", "no contention"}, {"contended", "5", "three neighbours"}};
    for (String[] figure : figures) {
      Map<String, List<NodeCell>> byJob = new LinkedHashMap<>();
      List<NodeCell> median = new ArrayList<>();
      for (NodeCell cell : medianCells) {
        if (cell.load.equals(figure[0])) {
          median.add(cell);
        }
      }
      if (!median.isEmpty()) {
        byJob.put("median", median);
      }
      byJob.putAll(pig.byQuery(disk, figure[0]));
      if (byJob.isEmpty()) {
        continue;
      }
      Files.createDirectories(out);
      Path file =
          NodePlot.figure(
              "Figure "
                  + figure[1]
                  + " analog: "
                  + disk
                  + ", "
                  + figure[2]
                  + "; time relative to stock (median of runs, min-max bars)",
              byJob,
              out.resolve("figure" + figure[1] + "-" + disk + ".png"));
      BenchReport.info("plot: %s", file);
    }
  }

  private void measure(
      MedianBench bench,
      NodeCell cell,
      Path root,
      boolean containers,
      Neighbours neighbours,
      long limit,
      Function<NodePlacement, MedianPlacement> place)
      throws Exception {
    for (int run = 1; run <= runs; run++) {
      MemoryContainer container =
          containers ? MemoryContainer.create("median-" + cell.name() + "-" + run, limit) : null;
      try (NodePlacement placement =
          NodePlacement.spillsOnDisk(root.resolve("median"), container)) {
        MedianMeasure[] pair;
        try {
          pair = bench.pair(cell.name(), place.apply(placement));
        } catch (IOException e) {
          // One failed run (a child killed at its container's limit, say) is reported with its
          // cell; the sweep goes on.
          cell.failed(run, e.getMessage());
          BenchReport.info("%s run %d FAILED: %s", cell.name(), run, e.getMessage());
          continue;
        }
        cell.add(pair[0].reduceSeconds(), pair[1].reduceSeconds());
        cell.stockDiskBytes = pair[0].number("reduceDiskBytes");
        cell.spilledBytes = pair[1].spilledBytes();
        cell.reduceInputBytes = pair[1].reduceInputBytes();
        BenchReport.info(
            "%s run %d (container limit %s%s): stock %.1f s, ours %.1f s; container peak %s;"
                + " ours spilled to pool %s, remote %s, disk %s (%d chunks overflowed), blocked"
                + " on writes %.2f s, on reads %.2f s",
            cell.name(),
            run,
            container != null ? ByteSize.format(limit) : "none",
            neighbours != null
                ? ", " + neighbours.describe() + ", " + neighbours.alive() + " alive"
                : "",
            pair[0].reduceSeconds(),
            pair[1].reduceSeconds(),
            ByteSize.format(placement.maxUsage()),
            ByteSize.format(pair[1].sponge("POOL_BYTES_WRITTEN")),
            ByteSize.format(pair[1].sponge("REMOTE_BYTES_WRITTEN")),
            ByteSize.format(pair[1].sponge("DISK_BYTES_WRITTEN")),
            pair[1].sponge("OVERFLOW_CHUNKS"),
            pair[1].sponge("BLOCKED_WRITE_MILLIS") / 1e3,
            pair[1].sponge("BLOCKED_READ_MILLIS") / 1e3);
      }
    }
    if (cell.measured()) {
      BenchReport.bench("median-" + cell.name(), NodeCell.median(cell.ratios), cell.details());
    } else {
      BenchReport.info("FAILED: median-%s, all %d runs", cell.name(), cell.failures.size());
    }
  }

  /**
   * The remote cells: per disk class in {@code bench.node.remote.disks} (hdd), link speed in {@code
   * bench.node.remote.links} (1g,10g; empty: none) and load in {@code bench.node.remote.loads}
   * (quiet,contended: three neighbours) and {@code bench.node.remote.overflow} (on; "on,off"
   * measures both, {@code sponge.write.overflow}), memory scarce and ours' pool only {@code
   * bench.node.remote.pool}, so the reducer spills past it to node 2's sponge server (a pool of
   * {@code bench.node.remote.lender}) over the rack link; both runs on node 1 of the rack.
   */
  private void remoteCells(MedianBench bench, boolean disksHere, boolean containers)
      throws Exception {
    List<String> links = list("bench.node.remote.links", "1g,10g");
    if (!parts.contains("median")) {
      return;
    }
    int rackNumber = 30;
    for (String label : list("bench.node.remote.disks", "hdd")) {
      DiskClass diskClass = DiskClass.of(label);
      if (!disksHere && diskClass != DiskClass.NVME) {
        BenchReport.info("NOT RUN: the remote cells on %s (no disk classes)", diskClass.label);
        continue;
      }
      List<NodeCell> ofDisk = new ArrayList<>();
      for (String link : links) {
        for (String load : list("bench.node.remote.loads", "quiet,contended")) {
          if (!load.equals("quiet") && (!disksHere || !containers)) {
            BenchReport.info(
                "NOT RUN: the %s remote cells (neighbours need disk classes and containers)", load);
            continue;
          }
          for (String overflow : list("bench.node.remote.overflow", "on")) {
            ofDisk.add(
                remoteCell(
                    bench,
                    diskClass,
                    link,
                    load,
                    overflow.equals("on"),
                    ++rackNumber,
                    disksHere,
                    containers));
          }
        }
      }
      cells.addAll(ofDisk);
      if (!ofDisk.isEmpty()) {
        Files.createDirectories(out);
        BenchReport.info("plot: %s", NodePlot.draw(diskClass.label + "-remote", ofDisk, out));
      }
    }
  }

  private NodeCell remoteCell(
      MedianBench bench,
      DiskClass diskClass,
      String link,
      String load,
      boolean overflow,
      int rackNumber,
      boolean disksHere,
      boolean containers)
      throws Exception {
    long pool = size("bench.node.remote.pool", "32m");
    NodeCell cell =
        new NodeCell(
            diskClass.label,
            load,
            "scarce-pool"
                + ByteSize.format(pool)
                + "-remote"
                + link
                + (overflow ? "" : "-no-overflow"));
    Path plain = imageDir.resolve(Teardown.prefix() + "remote");
    EmulatedDisk disk =
        disksHere
            ? EmulatedDisk.create(diskClass, diskClass.label + "-remote", 6L << 30, imageDir)
            : null;
    try (RackNetwork rack = RackNetwork.create(rackNumber, 2, RemoteTierBench.bitsPerSecond(link));
        RackServices services =
            RackServices.start(rack, size("bench.node.remote.lender", "1g"), imageDir);
        Neighbours neighbours = load.equals("quiet") ? null : Neighbours.start(disk, 3)) {
      Path root = disk != null ? disk.mount : Files.createDirectories(plain);
      BenchReport.info(
          "remote cell %s: both runs on node 1 of a %s rack; ours' pool %s, then node 2's server%s",
          cell.name(),
          link,
          ByteSize.format(pool),
          remoteSettings.isEmpty() ? "" : "; ours also with " + remoteSettings);
      measure(
          bench,
          cell,
          root,
          containers,
          neighbours,
          containerLimit("scarce"),
          node -> new RackPlacement(node, rack, services, pool, overflow, remoteSettings));
      return cell;
    } finally {
      if (disk != null) {
        disk.close();
      } else {
        StaleResources.deleteTree(plain);
      }
    }
  }

  private void report(MedianBench bench) throws IOException {
    pig.report(notes);
    if (!parts.contains("median")) {
      return;
    }
    List<String> lines = SweepReport.begin(out, "# Node sweep: the median job on emulated nodes");
    lines.add(
        "Generated by `NodeSweep` (see docs/benchmarks.md). Median job: "
            + bench.describe()
            + ". Reduce phase in seconds, median of "
            + runs
            + " runs (min-max); ratio = ours / stock"
            + " per run. Memory: each run's JVM in a memory cgroup of heap "
            + ByteSize.format(heap)
            + " + direct "
            + ByteSize.format(direct)
            + " + "
            + ByteSize.format(overhead)
            + " JVM overhead + page cache (abundant "
            + System.getProperty("bench.node.cache.abundant", "2g")
            + ", scarce "
            + System.getProperty("bench.node.cache.scarce", "32m")
            + ").");
    SweepReport.disksAndNotes(lines, notes);
    lines.add("| disk | load | memory | stock s | ours s | ours / stock |");
    lines.add("|---|---|---|---|---|---|");
    cells.forEach(cell -> lines.add(cell.row()));
    Path table = out.resolve("node-sweep.md");
    Files.write(table, lines, StandardCharsets.UTF_8);
    BenchReport.info("table: %s", table);
  }

  /**
   * A median run's container limit: heap, direct memory, the JVM's overhead ({@code
   * bench.node.median.overhead}) and the page cache. Measured here: a median run's JVM, its heap
   * pretouched, is 455 to 465 MB resident (direct memory hardly used), so a scarce container (544m)
   * leaves it some 80 MB of page cache: most of what stock spills goes to the disk and is read back
   * from it. With the earlier 320m of overhead no container ever reached its limit.
   */
  static long containerLimit(String memory) {
    return containerLimit(
        size("bench.node.heap", "384m"), size(MEDIAN_OVERHEAD, MEDIAN_OVERHEAD_DEFAULT), memory);
  }

  /** A Pig run's container limit for a JVM of {@code heap} ({@code bench.node.overhead}). */
  static long containerLimit(long heap, String memory) {
    return containerLimit(heap, size("bench.node.overhead", "320m"), memory);
  }

  private static long containerLimit(long heap, long overhead, String memory) {
    return heap
        + size("bench.node.direct", "64m")
        + overhead
        + size("bench.node.cache." + memory, memory.equals("scarce") ? "32m" : "2g");
  }

  /**
   * Where a node benchmark puts disk images and pools: {@code key}, else bench.node.dir, else tmp.
   */
  static Path workDir(String key) {
    return Path.of(
        System.getProperty(
            key, System.getProperty("bench.node.dir", System.getProperty("java.io.tmpdir"))));
  }

  static List<String> list(String key, String fallback) {
    List<String> values = new ArrayList<>();
    for (String value : System.getProperty(key, fallback).split(",")) {
      if (!value.isBlank()) {
        values.add(value.trim().toLowerCase(Locale.ROOT));
      }
    }
    return values;
  }

  private static long size(String key, String fallback) {
    return ByteSize.parse(System.getProperty(key, fallback));
  }
}
