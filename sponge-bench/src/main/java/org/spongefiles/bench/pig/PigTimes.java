package org.spongefiles.bench.pig;

import java.util.Locale;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.pig.QueryRun;

/** Query times of PigBench at one load level: per query, stock and sponge, every repetition. */
final class PigTimes {
  private final long[][] stock;
  private final long[][] sponge;
  private final int[] stockRuns;
  private final int[] spongeRuns;

  PigTimes(int queries, int reps) {
    stock = new long[queries][reps];
    sponge = new long[queries][reps];
    stockRuns = new int[queries];
    spongeRuns = new int[queries];
  }

  void add(int query, boolean withSponge, QueryRun run) {
    if (withSponge) {
      sponge[query][spongeRuns[query]++] = run.millis();
    } else {
      stock[query][stockRuns[query]++] = run.millis();
    }
  }

  /**
   * One BENCH line for query {@code query}: mean sponge time over mean stock time, with {@code
   * note} (the target) at the end.
   */
  void report(String measure, int query, String note) {
    double stockMean = mean(stock[query], stockRuns[query]);
    double spongeMean = mean(sponge[query], spongeRuns[query]);
    BenchReport.bench(
        measure,
        spongeMean / stockMean,
        String.format(
            Locale.ROOT,
            "sponge_s=%.1f stock_s=%.1f sponge_runs_s=%s stock_runs_s=%s %s",
            spongeMean / 1e3,
            stockMean / 1e3,
            seconds(sponge[query], spongeRuns[query]),
            seconds(stock[query], stockRuns[query]),
            note));
  }

  private static double mean(long[] millis, int count) {
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += millis[i];
    }
    return sum / (double) count;
  }

  private static String seconds(long[] millis, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.1f", millis[i] / 1e3));
    }
    return text.toString();
  }
}
