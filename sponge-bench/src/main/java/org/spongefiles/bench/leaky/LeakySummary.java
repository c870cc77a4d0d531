package org.spongefiles.bench.leaky;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spongefiles.workloads.leaky.LeakyWorkload;

/**
 * What one workload's sweep says: for each variant the highest ratio it finished at and the least
 * heap at which it finishes within 5% of its best time; the speedup where the baseline last
 * finished.
 */
final class LeakySummary {
  private final LeakyWorkload workload;
  private final List<LeakyRun> baseline = new ArrayList<>();
  private final List<LeakyRun> leaky = new ArrayList<>();

  LeakySummary(LeakyWorkload workload, List<LeakyRun> runs) {
    this.workload = workload;
    for (LeakyRun run : runs) {
      if (run.workload == workload && run.variant.equals("baseline")) {
        baseline.add(run);
      } else if (run.workload == workload && run.variant.equals("leaky")) {
        leaky.add(run);
      }
    }
  }

  /** Baseline time over leaky time at the highest ratio the baseline finished (0 if none). */
  double speedup() {
    LeakyRun lastBaseline = highestFinished(baseline);
    if (lastBaseline == null) {
      return 0;
    }
    LeakyRun sameRatio = at(leaky, lastBaseline.ratio);
    return sameRatio == null || !sameRatio.ok()
        ? 0
        : lastBaseline.reduceMs / (double) sameRatio.reduceMs;
  }

  /** Leaky least heap over baseline least heap (each within 5% of its own best time). */
  double heapRatio() {
    LeakyRun b = leastHeapNearBest(baseline);
    LeakyRun l = leastHeapNearBest(leaky);
    return b == null || l == null ? Double.NaN : l.heapMb / (double) b.heapMb;
  }

  /**
   * The least heap at which the leaky buffer is within 5% of the baseline's best time, over the
   * baseline's least heap for that time: the paper's Figure 15 reading ("memory to achieve
   * comparable performance").
   */
  double comparableHeapRatio() {
    LeakyRun b = leastHeapNearBest(baseline);
    if (b == null) {
      return Double.NaN;
    }
    long target = fastest(baseline).reduceMs;
    LeakyRun least = null;
    for (LeakyRun run : leaky) {
      if (run.ok()
          && run.reduceMs <= target * 1.05
          && (least == null || run.heapMb < least.heapMb)) {
        least = run;
      }
    }
    return least == null ? Double.NaN : least.heapMb / (double) b.heapMb;
  }

  List<String> lines() {
    String name = workload.name().toLowerCase(Locale.ROOT);
    List<String> lines = new ArrayList<>();
    LeakyRun lastBaseline = highestFinished(baseline);
    LeakyRun lastLeaky = highestFinished(leaky);
    LeakyRun sameRatio = lastBaseline == null ? null : at(leaky, lastBaseline.ratio);
    lines.add(
        String.format(
            Locale.ROOT,
            "BENCH leaky-speedup-%s ratio=%.3f dmr=%s heap_mb=%d baseline_ms=%d leaky_ms=%d"
                + " baseline_gc_ms=%d leaky_gc_ms=%d",
            name,
            speedup(),
            lastBaseline == null ? "none" : LeakyBench.format(lastBaseline.ratio),
            lastBaseline == null ? 0 : lastBaseline.heapMb,
            lastBaseline == null ? -1 : lastBaseline.reduceMs,
            sameRatio == null ? -1 : sameRatio.reduceMs,
            lastBaseline == null ? -1 : lastBaseline.gcMs,
            sameRatio == null ? -1 : sameRatio.gcMs));
    LeakyRun b = leastHeapNearBest(baseline);
    LeakyRun l = leastHeapNearBest(leaky);
    lines.add(
        String.format(
            Locale.ROOT,
            "BENCH leaky-heap-%s ratio=%.3f leaky_mb=%d leaky_ms=%d baseline_mb=%d baseline_ms=%d"
                + " (least heap within 5%% of each variant's best time)",
            name,
            heapRatio(),
            l == null ? -1 : l.heapMb,
            l == null ? -1 : l.reduceMs,
            b == null ? -1 : b.heapMb,
            b == null ? -1 : b.reduceMs));
    lines.add(
        String.format(
            Locale.ROOT,
            "BENCH leaky-heap-comparable-%s ratio=%.3f (least leaky heap within 5%% of the"
                + " baseline's best time, over the baseline's least heap within 5%% of it)",
            name,
            comparableHeapRatio()));
    lines.add(
        String.format(
            Locale.ROOT,
            "BENCH leaky-max-dmr-%s ratio=%.3f leaky_max_dmr=%s baseline_max_dmr=%s",
            name,
            lastLeaky == null || lastBaseline == null ? 0 : lastLeaky.ratio / lastBaseline.ratio,
            lastLeaky == null ? "none" : LeakyBench.format(lastLeaky.ratio),
            lastBaseline == null ? "none" : LeakyBench.format(lastBaseline.ratio)));
    return lines;
  }

  private static LeakyRun highestFinished(List<LeakyRun> runs) {
    LeakyRun best = null;
    for (LeakyRun run : runs) {
      if (run.ok() && (best == null || run.ratio > best.ratio)) {
        best = run;
      }
    }
    return best;
  }

  private static LeakyRun at(List<LeakyRun> runs, double ratio) {
    for (LeakyRun run : runs) {
      if (run.ratio == ratio) {
        return run;
      }
    }
    return null;
  }

  private static LeakyRun fastest(List<LeakyRun> runs) {
    LeakyRun best = null;
    for (LeakyRun run : runs) {
      if (run.ok() && (best == null || run.reduceMs < best.reduceMs)) {
        best = run;
      }
    }
    return best;
  }

  private static LeakyRun leastHeapNearBest(List<LeakyRun> runs) {
    long best = Long.MAX_VALUE;
    for (LeakyRun run : runs) {
      if (run.ok()) {
        best = Math.min(best, run.reduceMs);
      }
    }
    LeakyRun least = null;
    for (LeakyRun run : runs) {
      if (run.ok() && run.reduceMs <= best * 1.05 && (least == null || run.heapMb < least.heapMb)) {
        least = run;
      }
    }
    return least;
  }
}
