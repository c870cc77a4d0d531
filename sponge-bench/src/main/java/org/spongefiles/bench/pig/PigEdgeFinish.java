package org.spongefiles.bench.pig;

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

/**
 * How often a multi-job script finishes near stock Pig's heap edge: the skewed JOIN ({@link
 * PigQuery#SKEWED_JOIN}, three jobs in one local-mode JVM) run by stock Pig and by the recipe as
 * shipped, alternating, {@code runs} times each at each heap (out of memory ends the child), with
 * {@code io.sort.mb} 32 and a shuffle input buffer of 0.3 for both. Where both finish, their
 * outputs must be equal.
 *
 * <p>Prints {@code BENCH pig-edge-finish-skewed_join-<heap> ratio=<recipe's finishes / stock's>}
 * (target >= 1.0 wherever stock finishes at all) with both counts.
 */
final class PigEdgeFinish {
  private static final PigQuery QUERY = PigQuery.SKEWED_JOIN;

  private final Path dir;
  private final Path poolDir;
  private final long pages;
  private final List<Integer> heapsMb;
  private final int runs;
  private final Path input;
  private int runCount;

  PigEdgeFinish(Path dir, Path poolDir, long pages, List<Integer> heapsMb, int runs) {
    this.dir = dir;
    this.poolDir = poolDir;
    this.pages = pages;
    this.heapsMb = List.copyOf(heapsMb);
    this.runs = runs;
    this.input = dir.resolve("edge-pages");
  }

  void run() throws Exception {
    long bytes = new WebCrawlGenerator(2016).write(input, pages, 2);
    BenchReport.info(
        "edge: %,d pages (%.1f MB), %s, heaps %s MB, %d runs per variant and heap",
        pages, bytes / 1e6, QUERY.label(), heapsMb, runs);
    for (int heapMb : heapsMb) {
      int stock = 0;
      int recipe = 0;
      List<String> stockAnswer = null;
      for (int run = 0; run < runs; run++) {
        for (int v = 0; v < 2; v++) {
          boolean withRecipe = (run % 2 == 1) == (v == 0);
          Path work = dir.resolve("edge-run-" + (++runCount));
          PigAttempt attempt = child(withRecipe, heapMb, work).attempt();
          BenchReport.info(
              "  %d MB, run %d: %s %s",
              heapMb,
              run,
              withRecipe ? "recipe" : "stock",
              attempt.finished() ? "finished" : attempt.reason());
          if (attempt.finished()) {
            List<String> answer = PigReference.sortedLines(attempt.runs().get(0).output());
            if (stockAnswer == null && !withRecipe) {
              stockAnswer = answer;
            } else if (stockAnswer != null && withRecipe && !answer.equals(stockAnswer)) {
              throw new IllegalStateException(
                  QUERY + " at " + heapMb + " MB: the recipe answered differently from stock Pig");
            }
            if (withRecipe) {
              recipe++;
            } else {
              stock++;
            }
          }
          PigFiles.deleteTree(work);
        }
      }
      BenchReport.bench(
          "pig-edge-finish-" + QUERY.label() + "-" + heapMb,
          stock == 0 ? (recipe == 0 ? 1.0 : Double.POSITIVE_INFINITY) : recipe / (double) stock,
          String.format(
              Locale.ROOT,
              "recipe=%d/%d stock=%d/%d pages=%d io_sort_mb=32 shuffle_buffer=0.3 (finishes of a"
                  + " three-job script in one local-mode JVM; target >= 1.0)",
              recipe,
              runs,
              stock,
              runs,
              pages));
    }
  }

  private PigJvm child(boolean recipe, int heapMb, Path work) {
    return atTheEdge(
        new PigJvm(input, work)
            .heap(heapMb + "m")
            .jvmOptions("-XX:+ExitOnOutOfMemoryError")
            .queries(QUERY),
        recipe,
        poolDir,
        "pigbench-edge");
  }

  /**
   * {@code child} with the settings of issue 33's heap edge ({@code io.sort.mb} 32, a 0.3 shuffle
   * buffer) and, when {@code recipe}, the recipe on a pool named {@code poolName} in {@code
   * poolDir}.
   */
  static PigJvm atTheEdge(PigJvm child, boolean recipe, Path poolDir, String poolName) {
    child
        .set("mapreduce.task.io.sort.mb", "32")
        .set("mapreduce.reduce.shuffle.input.buffer.percent", "0.3");
    if (recipe) {
      child
          .recipe()
          .set("sponge.pool.dir", poolDir.toString())
          .set("sponge.pool.name", poolName)
          .set("sponge.pool.permissions", "rw-------");
    }
    return child;
  }
}
