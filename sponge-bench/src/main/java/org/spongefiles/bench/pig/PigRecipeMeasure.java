package org.spongefiles.bench.pig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.pig.PigAttempt;
import org.spongefiles.workloads.pig.PigFiles;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * Never worse than stock, measured: the least heap at which stock Pig, and Pig following the
 * shipped recipe unchanged, finish the paper's two queries and the per-domain median (one child JVM
 * per variant and heap runs all three, local mode, out of memory ends it), found by bisection in
 * {@value #STEP_MB} MB steps; and the time of both at the same heap, alternating. Both variants run
 * with the same Hadoop settings ({@link PigJvm}'s), the recipe adds none.
 *
 * <p>Prints {@code BENCH pig-recipe-least-heap ratio=<recipe's least heap / stock's>} (target <=
 * 1.0) and {@code BENCH pig-recipe-time ratio=<recipe / stock>} (target <= 1.05).
 */
final class PigRecipeMeasure {
  private static final PigQuery[] QUERIES = {
    PigQuery.ANCHORTEXT, PigQuery.QUANTILES, PigQuery.MEDIAN
  };
  private static final int STEP_MB = 4;

  private final Path dir;
  private final Path poolDir;
  private final String poolSize;
  private final long pages;
  private final int timeHeapMb;
  private final int reps;
  private final int sortMb;
  private final Path input;
  private int runCount;

  /**
   * {@code sortMb}: Hadoop's {@code mapreduce.task.io.sort.mb} for both variants, 0 for {@link
   * PigJvm}'s (16).
   */
  PigRecipeMeasure(
      Path dir, Path poolDir, String poolSize, long pages, int timeHeapMb, int reps, int sortMb) {
    this.dir = dir;
    this.poolDir = poolDir;
    this.poolSize = poolSize;
    this.pages = pages;
    this.timeHeapMb = timeHeapMb;
    this.reps = reps;
    this.sortMb = sortMb;
    this.input = dir.resolve("recipe-pages");
  }

  void run() throws Exception {
    generate();
    int stockLeast = leastHeap(false);
    int recipeLeast = leastHeap(true);
    BenchReport.bench(
        "pig-recipe-least-heap",
        recipeLeast / (double) stockLeast,
        String.format(
            Locale.ROOT,
            "recipe_mb=%d stock_mb=%d step_mb=%d pages=%d io_sort_mb=%s (least heap finishing "
                + "all three queries in one local-mode JVM; target <= 1.0)",
            recipeLeast,
            stockLeast,
            STEP_MB,
            pages,
            sortSetting()));
    time();
  }

  /** Only the time of both variants at the same heap ({@code -Dbench.pig.part=recipe-time}). */
  void runTimeOnly() throws Exception {
    generate();
    time();
  }

  private void generate() throws IOException {
    long bytes = new WebCrawlGenerator(2015).write(input, pages, 4);
    BenchReport.info(
        "recipe measures: %,d pages (%.1f MB), queries anchortext, quantiles, median",
        pages, bytes / 1e6);
  }

  /** The least heap, in MB, at which the variant finishes every query, by bisection. */
  private int leastHeap(boolean recipe) throws Exception {
    int high = timeHeapMb;
    if (!finishes(recipe, high)) {
      throw new IllegalStateException(
          (recipe ? "The recipe" : "Stock Pig") + " does not finish at " + high + " MB");
    }
    int low = STEP_MB;
    // Invariant: high finishes, low does not (or is the floor).
    while (high - low > STEP_MB) {
      int middle = (low + high) / 2 / STEP_MB * STEP_MB;
      if (finishes(recipe, middle)) {
        high = middle;
      } else {
        low = middle;
      }
    }
    return high;
  }

  private boolean finishes(boolean recipe, int heapMb) throws Exception {
    Path work = nextWork();
    PigAttempt attempt = child(recipe, heapMb + "m", work).attempt();
    BenchReport.info(
        "  least heap: %s at %d MB: %s",
        recipe ? "recipe" : "stock",
        heapMb,
        attempt.finished() ? "finished" : "died after " + attempt.runs().size() + " queries");
    PigFiles.deleteTree(work);
    return attempt.finished();
  }

  /** Both variants at the same heap, alternating which goes first; the first pair must agree. */
  private void time() throws Exception {
    long[] stock = new long[reps];
    long[] recipe = new long[reps];
    for (int rep = 0; rep < reps; rep++) {
      Path firstWork = null;
      List<QueryRun> first = null;
      for (int v = 0; v < 2; v++) {
        boolean withRecipe = (rep % 2 == 1) == (v == 0);
        Path work = nextWork();
        List<QueryRun> runs = child(withRecipe, timeHeapMb + "m", work).run();
        long millis = runs.stream().mapToLong(QueryRun::millis).sum();
        (withRecipe ? recipe : stock)[rep] = millis;
        BenchReport.info(
            "  time at %d MB, rep %d: %s %.1f s (%s)",
            timeHeapMb, rep, withRecipe ? "recipe" : "stock", millis / 1e3, describe(runs));
        if (rep == 0 && first == null) {
          first = runs;
          firstWork = work;
          continue;
        }
        if (rep == 0) {
          checkSameAnswers(first, runs);
          PigFiles.deleteTree(firstWork);
        }
        PigFiles.deleteTree(work);
      }
    }
    double stockMean = mean(stock);
    double recipeMean = mean(recipe);
    BenchReport.bench(
        "pig-recipe-time",
        recipeMean / stockMean,
        String.format(
            Locale.ROOT,
            "recipe_s=%.1f stock_s=%.1f heap_mb=%d reps=%d io_sort_mb=%s stock_runs_ms=%s "
                + "recipe_runs_ms=%s (sum of the three queries' times, mean over reps; "
                + "target <= 1.05)",
            recipeMean / 1e3,
            stockMean / 1e3,
            timeHeapMb,
            reps,
            sortSetting(),
            java.util.Arrays.toString(stock).replace(" ", ""),
            java.util.Arrays.toString(recipe).replace(" ", "")));
  }

  private String sortSetting() {
    return sortMb > 0 ? Integer.toString(sortMb) : "16";
  }

  private Path nextWork() {
    return dir.resolve("recipe-run-" + (++runCount));
  }

  private static void checkSameAnswers(List<QueryRun> a, List<QueryRun> b) throws IOException {
    for (int q = 0; q < QUERIES.length; q++) {
      List<String> first = PigReference.sortedLines(a.get(q).output());
      if (first.isEmpty() || !first.equals(PigReference.sortedLines(b.get(q).output()))) {
        throw new IllegalStateException(
            QUERIES[q] + ": the recipe answered differently from stock Pig");
      }
    }
    BenchReport.info("  same output from both variants for all %d queries", QUERIES.length);
  }

  private PigJvm child(boolean recipe, String heap, Path work) {
    PigJvm child =
        new PigJvm(input, work)
            .heap(heap)
            .jvmOptions("-XX:+ExitOnOutOfMemoryError")
            .queries(QUERIES);
    if (sortMb > 0) {
      child.set("mapreduce.task.io.sort.mb", Integer.toString(sortMb));
    }
    if (recipe) {
      child
          .recipe()
          .set("sponge.pool.dir", poolDir.toString())
          .set("sponge.pool.name", "pigbench-recipe")
          .set("sponge.pool.size", poolSize)
          .set("sponge.pool.permissions", "rw-------");
    }
    return child;
  }

  private static String describe(List<QueryRun> runs) {
    StringBuilder text = new StringBuilder();
    for (QueryRun run : runs) {
      text.append(text.length() == 0 ? "" : ", ")
          .append(
              String.format(
                  Locale.ROOT,
                  "%s %.1f s, bag spills %d, pig proactive %d",
                  run.name(),
                  run.millis() / 1e3,
                  run.counter("BAG_SPILLS"),
                  run.counter("PROACTIVE_SPILL_COUNT_BAGS")));
    }
    return text.toString();
  }

  private static double mean(long[] millis) {
    double sum = 0;
    for (long m : millis) {
      sum += m;
    }
    return sum / millis.length;
  }
}
