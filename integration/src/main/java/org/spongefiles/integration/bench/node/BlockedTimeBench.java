package org.spongefiles.integration.bench.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.spongefiles.integration.bench.BenchReport;
import org.spongefiles.integration.bench.median.MedianBench;
import org.spongefiles.integration.bench.median.MedianMeasure;
import org.spongefiles.integration.bench.median.MedianPlacement;

/**
 * Blocked-time analysis (the blocked-time paper's method) of the median job on one emulated node
 * cell: the reduce phase's time blocked on spill I/O, for stock from a JFR recording of its file
 * I/O ({@link SpillIoRecording}), for ours from the SpongeFiles counters (BLOCKED_WRITE_MILLIS,
 * BLOCKED_READ_MILLIS), and the reduce phase with that time removed: with a spill medium that never
 * blocks, stock could at best reach {@code (reduce - blocked) / reduce} of its time.
 *
 * <p>Properties: {@code bench.blocked.cells} (hdd-contended-scarce,nvme-quiet-abundant), {@code
 * bench.blocked.dir} (java.io.tmpdir); the job's sizes as in {@link NodeSweep}.
 */
public final class BlockedTimeBench {
  private BlockedTimeBench() {}

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    NodeSweep.defaults();
    EmulatorSupport support = EmulatorSupport.probe();
    support.missing().forEach(line -> BenchReport.info("NOT RUN: %s", line));
    if (!support.missing().isEmpty()) {
      return;
    }
    StaleResources.clean().forEach(line -> BenchReport.info("removed stale %s", line));
    MedianBench bench = new MedianBench();
    Path dir =
        Path.of(System.getProperty("bench.blocked.dir", System.getProperty("java.io.tmpdir")));
    for (String cell :
        System.getProperty("bench.blocked.cells", "hdd-contended-scarce,nvme-quiet-abundant")
            .split(",")) {
      String[] parts = cell.trim().split("-(?=quiet|contended)|-(?=abundant|scarce)");
      measure(bench, DiskClass.of(parts[0]), parts[1], parts[2], dir);
    }
    System.exit(bench.mismatch() ? 1 : 0);
  }

  private static void measure(
      MedianBench bench, DiskClass diskClass, String load, String memory, Path dir)
      throws Exception {
    String name = diskClass.label + "-" + load + "-" + memory;
    try (EmulatedDisk disk = EmulatedDisk.create(diskClass, "blocked", 6L << 30, dir);
        Neighbours neighbours = Neighbours.start(disk, load.equals("contended") ? 3 : 0);
        NodePlacement node =
            new NodePlacement(
                disk.mount.resolve("median"),
                MemoryContainer.create("blocked-" + name, NodeSweep.containerLimit(memory)))) {
      Path recording = Files.createTempFile(dir, Teardown.prefix() + "stock-", ".jfr");
      Recorded placement = new Recorded(node, recording);
      MedianMeasure[] pair;
      try {
        pair = bench.pair(name, placement);
      } finally {
        Files.deleteIfExists(recording.resolveSibling("spill-io.jfc"));
      }
      long[] stockBlocked = SpillIoRecording.blockedMillis(recording);
      Files.deleteIfExists(recording);
      MedianMeasure stock = pair[0];
      MedianMeasure ours = pair[1];
      double stockBlockedS = (stockBlocked[0] + stockBlocked[1]) / 1e3;
      double oursBlockedS =
          (ours.sponge("BLOCKED_WRITE_MILLIS") + ours.sponge("BLOCKED_READ_MILLIS")) / 1e3;
      BenchReport.bench(
          "blocked-" + name,
          (stock.reduceSeconds() - stockBlockedS) / stock.reduceSeconds(),
          String.format(
              Locale.ROOT,
              "(stock's reduce phase without its spill I/O / with) stock reduce_s=%.1f"
                  + " blocked_s=%.2f (write %.2f, read %.2f; JFR file I/O on its spill files)"
                  + " unblocked_s=%.1f; ours reduce_s=%.1f blocked_s=%.2f (SpongeFiles counters)"
                  + " unblocked_s=%.1f; ours/stock=%.3f load=\"%s\"",
              stock.reduceSeconds(),
              stockBlockedS,
              stockBlocked[0] / 1e3,
              stockBlocked[1] / 1e3,
              stock.reduceSeconds() - stockBlockedS,
              ours.reduceSeconds(),
              oursBlockedS,
              ours.reduceSeconds() - oursBlockedS,
              ours.reduceSeconds() / stock.reduceSeconds(),
              neighbours.describe()));
    }
  }

  /** The node's placement, with stock's JVM recording its file I/O. */
  private static final class Recorded implements MedianPlacement {
    private final NodePlacement node;
    private final Path recording;
    private boolean stock;

    Recorded(NodePlacement node, Path recording) {
      this.node = node;
      this.recording = recording;
    }

    @Override
    public Path workRoot(Path benchDir) {
      return node.workRoot(benchDir);
    }

    @Override
    public List<String> command(List<String> javaCommand) {
      List<String> command = new ArrayList<>(javaCommand);
      if (stock) {
        try {
          command.add(1, SpillIoRecording.option(recording));
        } catch (IOException e) {
          throw new IllegalStateException("Cannot write JFR settings beside " + recording, e);
        }
      }
      return node.command(command);
    }

    @Override
    public void prepare(Map<String, String> conf) throws IOException {
      stock = !conf.containsKey("sponge.pool.dir");
      node.prepare(conf);
    }
  }
}
