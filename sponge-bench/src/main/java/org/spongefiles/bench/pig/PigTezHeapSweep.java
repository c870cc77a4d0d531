package org.spongefiles.bench.pig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.spongefiles.pigtez.TezBagAgent;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.pig.PigAttempt;
import org.spongefiles.workloads.pig.PigFiles;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * Never worse than stock on Tez, as a heap sweep (the Tez side of sponge-it's PigHeapSweepTest): a
 * GROUP with nested ORDER and DISTINCTs, a COGROUP, a hash and a skewed JOIN in {@code tez_local},
 * stock Pig against the recipe as shipped with sponge-pig-tez-agent (default shares), one child JVM
 * per variant and heap, the two side by side, at heaps not tuned to the data: {@code
 * bench.pig.sweep.top} MB, then each 0.8 of the one before. Where stock finished and the recipe did
 * not, the recipe runs once more at that heap. The descent goes on below stock's first failure
 * until both variants fail at one heap (or {@code bench.pig.sweep.heaps} heaps), so the report
 * shows each variant's edge.
 *
 * <p>Prints one line per variant and heap, then {@code BENCH pig-tez-sweep ratio=<recipe's least
 * heap / stock's>} (least heap: the lowest of the descent's heaps where the variant finished every
 * query and every heap above it) and how often the recipe's bags spilled at stock's least heap
 * (they must have, or the heaps did not reach the bags). Exits 1 when, at a heap where stock Pig
 * finished, the recipe did not finish (twice) or answered differently. Both get {@code
 * tez.runtime.io.sort.mb} 16 and {@code -XX:+ExitOnOutOfMemoryError}. Properties: {@code
 * bench.pig.pages} (300,000), {@code bench.pig.sweep.top} (192), {@code bench.pig.sweep.heaps} (8).
 */
public final class PigTezHeapSweep {
  private static final PigQuery[] QUERIES = {
    PigQuery.MEDIAN, PigQuery.COGROUP, PigQuery.JOIN, PigQuery.JOIN_SKEWED
  };
  private static final double STEP = 0.8;

  private final Path dir;
  private final Path input;
  private final Path poolDir;
  private final Path agent;

  private PigTezHeapSweep(Path dir, Path input, Path poolDir, Path agent) {
    this.dir = dir;
    this.input = input;
    this.poolDir = poolDir;
    this.agent = agent;
  }

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    long pages = Long.getLong("bench.pig.pages", 300_000);
    int top = Integer.getInteger("bench.pig.sweep.top", 192);
    int heaps = Integer.getInteger("bench.pig.sweep.heaps", 8);
    Path dir = Files.createTempDirectory("pigtezsweep-");
    Path poolDir = PigFiles.newShmDir("pigtezsweep-pool-");
    boolean neverWorse;
    try {
      Path input = dir.resolve("pages");
      long bytes = new WebCrawlGenerator(20143).write(input, pages, 2);
      Path agent =
          Path.of(TezBagAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      BenchReport.info(
          "%,d pages, %.1f MB; tez_local, heaps from %d MB by 0.8, agent %s",
          pages, bytes / 1e6, top, agent.getFileName());
      neverWorse = new PigTezHeapSweep(dir, input, poolDir, agent).sweep(top, heaps);
    } finally {
      PigFiles.deleteTree(poolDir);
      PigFiles.deleteTree(dir);
    }
    if (!neverWorse) {
      System.exit(1);
    }
  }

  /** Runs the descent; false if the recipe did worse than stock at some heap. */
  private boolean sweep(int top, int heaps) throws Exception {
    ExecutorService children = Executors.newFixedThreadPool(2);
    boolean neverWorse = true;
    int stockLeast = 0;
    int recipeLeast = 0;
    long spillsAtStockLeast = 0;
    boolean stockAbove = true;
    boolean recipeAbove = true;
    try {
      double heap = top;
      for (int i = 0; i < heaps; i++, heap *= STEP) {
        int mb = (int) Math.round(heap);
        Future<PigAttempt> stockRun = children.submit(() -> child(mb, "stock-", false).attempt());
        Future<PigAttempt> recipeRun = children.submit(() -> child(mb, "recipe-", true).attempt());
        PigAttempt stock = stockRun.get();
        PigAttempt recipe = recipeRun.get();
        report("stock", mb, stock);
        report("recipe", mb, recipe);
        if (stock.finished() && !recipe.finished()) {
          recipe = child(mb, "recipe-again-", true).attempt();
          report("recipe, once more,", mb, recipe);
        }
        if (stock.finished()) {
          neverWorse &= recipe.finished() && sameOutputs(mb, stock, recipe);
        }
        stockAbove &= stock.finished();
        recipeAbove &= recipe.finished();
        if (stockAbove && recipe.finished()) {
          spillsAtStockLeast = 0;
          for (QueryRun run : recipe.runs()) {
            spillsAtStockLeast += run.counter("BAG_SPILLS");
          }
        }
        stockLeast = stockAbove ? mb : stockLeast;
        recipeLeast = recipeAbove ? mb : recipeLeast;
        if (!stock.finished() && !recipe.finished()) {
          break;
        }
      }
    } finally {
      children.shutdownNow();
    }
    BenchReport.bench(
        "pig-tez-sweep",
        stockLeast == 0 ? Double.NaN : (double) recipeLeast / stockLeast,
        String.format(
            Locale.ROOT,
            "stock_least_mb=%d recipe_least_mb=%d recipe_bag_spills_at_stock_least=%d"
                + " never_worse=%s (target: ratio <= 1.0, never_worse=true, spills > 0)",
            stockLeast,
            recipeLeast,
            spillsAtStockLeast,
            neverWorse));
    return neverWorse;
  }

  private PigJvm child(int heapMb, String name, boolean withRecipe) {
    PigJvm child =
        new PigJvm(input, dir.resolve(name + heapMb))
            .mode("tez_local")
            .heap(heapMb + "m")
            .jvmOptions("-XX:+ExitOnOutOfMemoryError")
            .queries(QUERIES)
            .set("tez.runtime.io.sort.mb", "16");
    if (withRecipe) {
      child
          .recipe()
          .jvmOptions("-javaagent:" + agent)
          .set("sponge.pool.dir", poolDir.toString())
          .set("sponge.pool.name", "pigtezsweep-" + name + heapMb)
          .set("sponge.pool.size", "32m")
          .set("sponge.pool.permissions", "rw-------");
    }
    return child;
  }

  private static boolean sameOutputs(int heapMb, PigAttempt stock, PigAttempt recipe)
      throws Exception {
    for (int q = 0; q < QUERIES.length; q++) {
      QueryRun expected = stock.runs().get(q);
      QueryRun actual = recipe.runs().get(q);
      if (!PigReference.sortedLines(actual.output())
          .equals(PigReference.sortedLines(expected.output()))) {
        BenchReport.info(
            "%s at %d MB: the recipe's output differs from stock's", actual.name(), heapMb);
        return false;
      }
    }
    return true;
  }

  private static void report(String variant, int heapMb, PigAttempt attempt) {
    List<String> parts = new ArrayList<>();
    for (QueryRun run : attempt.runs()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "%s %.1f s, bag spills %d (self %d)",
              run.name(),
              run.millis() / 1e3,
              run.counter("BAG_SPILLS"),
              run.counter("BAG_SELF_SPILLS")));
    }
    BenchReport.info(
        "%s at %d MB: %s%s",
        variant,
        heapMb,
        attempt.finished()
            ? "finished"
            : "died after " + attempt.runs().size() + " (" + attempt.reason() + ")",
        parts.isEmpty() ? "" : " | " + String.join(" | ", parts));
  }
}
