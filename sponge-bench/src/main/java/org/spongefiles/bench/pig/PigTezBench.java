package org.spongefiles.bench.pig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.spongefiles.pigtez.TezBagAgent;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.pig.PigFiles;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * Pig on Tez ({@code tez_local}), stock against the recipe with sponge-pig-tez-agent, at Pig's and
 * the recipe's default shares: a GROUP with nested ORDER and DISTINCTs, a COGROUP and a hash JOIN
 * over skewed pages, one child JVM per variant and repetition running all three, the variants
 * alternating which goes first. Both get the same Tez sort buffer ({@code tez.runtime.io.sort.mb}
 * 16). Every recipe output is checked against stock's.
 *
 * <p>Prints {@code BENCH pig-tez-<query> ratio=<recipe / stock mean time>} with stock's bag spill
 * bytes under java.io.tmpdir and the recipe's there (target 0) and in SpongeFiles. Properties:
 * {@code bench.pig.pages} (400,000), {@code bench.pig.heap} (256m), {@code bench.pig.reps} (3),
 * {@code bench.pig.pool.size} (512m).
 */
public final class PigTezBench {
  private static final PigQuery[] QUERIES = {PigQuery.MEDIAN, PigQuery.COGROUP, PigQuery.JOIN};

  private PigTezBench() {}

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    long pages = Long.getLong("bench.pig.pages", 400_000);
    String heap = System.getProperty("bench.pig.heap", "256m");
    int reps = Integer.getInteger("bench.pig.reps", 3);
    String poolSize = System.getProperty("bench.pig.pool.size", "512m");
    Path dir = Files.createTempDirectory("pigtezbench-");
    Path poolDir = PigFiles.newShmDir("pigtezbench-pool-");
    try {
      Path input = dir.resolve("pages");
      long bytes = new WebCrawlGenerator(2032).write(input, pages, 4);
      Path agent =
          Path.of(TezBagAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      BenchReport.info(
          "%,d pages, %.1f MB; tez_local, heap %s, pool %s, agent %s",
          pages, bytes / 1e6, heap, poolSize, agent.getFileName());
      PigTimes times = new PigTimes(QUERIES.length, reps);
      List<QueryRun> stock = null;
      List<QueryRun> recipe = null;
      for (int rep = 0; rep < reps; rep++) {
        for (int turn = 0; turn < 2; turn++) {
          boolean withRecipe = (rep + turn) % 2 == 1;
          PigJvm child =
              new PigJvm(input, dir.resolve((withRecipe ? "recipe-" : "stock-") + rep))
                  .mode("tez_local")
                  .heap(heap)
                  .queries(QUERIES)
                  .set("tez.runtime.io.sort.mb", "16")
                  .measureTmpWrites();
          if (withRecipe) {
            child
                .recipe()
                .jvmOptions("-javaagent:" + agent)
                .set("sponge.pool.dir", poolDir.toString())
                .set("sponge.pool.name", "pigtezbench")
                .set("sponge.pool.size", poolSize)
                .set("sponge.pool.permissions", "rw-------");
          }
          List<QueryRun> runs = child.run();
          for (int q = 0; q < QUERIES.length; q++) {
            times.add(q, withRecipe, runs.get(q));
          }
          if (withRecipe) {
            recipe = runs;
          } else {
            stock = runs;
          }
        }
        for (int q = 0; q < QUERIES.length; q++) {
          if (!PigReference.sortedLines(recipe.get(q).output())
              .equals(PigReference.sortedLines(stock.get(q).output()))) {
            throw new IllegalStateException(
                "The recipe's " + QUERIES[q].label() + " differs from stock Pig's on Tez");
          }
        }
      }
      for (int q = 0; q < QUERIES.length; q++) {
        QueryRun s = stock.get(q);
        QueryRun r = recipe.get(q);
        times.report(
            "pig-tez-" + QUERIES[q].label(),
            q,
            String.format(
                Locale.ROOT,
                "stock_tmp_bag_mb=%.2f stock_tmp_bag_files=%d recipe_tmp_bag_mb=%.2f"
                    + " recipe_bag_spills=%d recipe_pool_mb=%.2f recipe_disk_mb=%.2f heap=%s"
                    + " pages=%d (last run of each; target: recipe_tmp_bag_mb=0, ratio <= 1.05)",
                s.tmpBagBytes() / 1e6,
                s.tmpBagFiles(),
                r.tmpBagBytes() / 1e6,
                r.counter("BAG_SPILLS"),
                r.counter("POOL_BYTES_WRITTEN") / 1e6,
                r.counter("DISK_BYTES_WRITTEN") / 1e6,
                heap,
                pages));
      }
    } finally {
      PigFiles.deleteTree(poolDir);
      PigFiles.deleteTree(dir);
    }
  }
}
