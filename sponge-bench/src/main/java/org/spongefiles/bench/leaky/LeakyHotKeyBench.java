package org.spongefiles.bench.leaky;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.leaky.LeakyHeapSweep;
import org.spongefiles.workloads.leaky.LeakyWorkload;

/**
 * The least heap of the hot-key workloads (one subnet with 25% of a group-by's rows, one page with
 * 25% of a join's visits), the HashMap baseline against the leaky buffer in each layout: every
 * variant runs in child JVMs at heaps going down by a factor of {@code bench.hotkey.step} (0.8)
 * from {@code bench.hotkey.top.mb} (768) to {@code bench.hotkey.floor.mb} (16) until it fails or
 * its output differs from the baseline's at the top heap. Prints per run and, at the end, {@code
 * BENCH leaky-least-heap-hotkey ratio=<the largest leaky least heap / naive least heap>}.
 *
 * <p>The join has {@code bench.hotkey.visits} visits (1,000,000); the group-by {@code
 * bench.hotkey.groupby.visits} (4,000,000): its naive reducer holds a few dozen bytes per row (a
 * country code as a Text in a list), so it takes millions of rows before its least heap is well
 * above eight times the roughly 21 MiB a JVM running a reduce context needs at all.
 */
public final class LeakyHotKeyBench {
  private static final String[] LEAKY = {"leaky-per_key", "leaky-shared", "leaky-auto"};

  private LeakyHotKeyBench() {}

  public static void main(String[] args) throws Exception {
    long visits = Long.getLong("bench.hotkey.visits", 1_000_000);
    long groupByVisits = Long.getLong("bench.hotkey.groupby.visits", 4_000_000);
    int top = Integer.getInteger("bench.hotkey.top.mb", 768);
    int floor = Integer.getInteger("bench.hotkey.floor.mb", 16);
    double step = Double.parseDouble(System.getProperty("bench.hotkey.step", "0.8"));
    int[] heaps = LeakyHeapSweep.heaps(top, floor, step);
    BenchReport.machine();

    Path work = Files.createTempDirectory("leaky-hotkey-bench-");
    Path shm = Path.of("/dev/shm");
    Path pool =
        Files.createTempDirectory(
            Files.isDirectory(shm) && Files.isWritable(shm) ? shm : work, "leaky-hotkey-pool-");
    try {
      LeakyHeapSweep sweep = new LeakyHeapSweep(work, pool, 600);
      double worst = 0;
      StringBuilder details = new StringBuilder();
      for (LeakyWorkload workload :
          new LeakyWorkload[] {LeakyWorkload.GROUPBY_HOTKEY, LeakyWorkload.JOIN_HOTKEY}) {
        Path input = work.resolve(workload.name() + ".input");
        long rows = workload == LeakyWorkload.GROUPBY_HOTKEY ? groupByVisits : visits;
        workload.write(input, 7, rows, 25_000, 5_000);
        LeakyHeapSweep.Outcome reference = sweep.run(workload, "baseline", input, top);
        if (!reference.status.equals("ok")) {
          throw new IllegalStateException(workload + ": the baseline fails at the top heap");
        }
        int naive = sweep.leastHeap(workload, "baseline", input, heaps, reference);
        BenchReport.info(
            "%s (%,d rows, %d MB of reduce input): naive least heap %d MiB",
            workload.label(), rows, Files.size(input) >> 20, naive);
        details.append(String.format(Locale.ROOT, " %s: naive=%dMiB", workload, naive));
        for (String variant : LEAKY) {
          int leaky = sweep.leastHeap(workload, variant, input, below(heaps, naive), reference);
          double ratio = leaky < 0 ? Double.NaN : leaky / (double) naive;
          worst = Math.max(worst, Double.isNaN(ratio) ? Double.POSITIVE_INFINITY : ratio);
          BenchReport.info(
              "%s %s: least heap %d MiB, %.3f of naive", workload.label(), variant, leaky, ratio);
          details.append(String.format(Locale.ROOT, " %s=%dMiB", variant, leaky));
        }
      }
      System.out.printf(
          Locale.ROOT,
          "BENCH leaky-least-heap-hotkey ratio=%.3f largest leaky least heap / naive least heap"
              + " (target <= 0.125; floor %d MiB, step %.2f, join %,d visits, group-by %,d rows)%s%n",
          worst,
          floor,
          step,
          visits,
          groupByVisits,
          details);
    } finally {
      delete(pool);
      delete(work);
    }
  }

  /** The heaps at or below {@code heap}. */
  private static int[] below(int[] heaps, int heap) {
    return Arrays.stream(heaps).filter(h -> h <= heap).toArray();
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(path);
      }
    }
  }
}
