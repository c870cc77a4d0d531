package org.spongefiles.integration.pig;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.testing.TestDirs;

/**
 * Never worse than stock: the paper's two Pig queries and a per-domain median with a nested ORDER
 * and two nested DISTINCTs, run by stock Pig and by Pig following the shipped recipe unchanged
 * (secondary-key optimization on, bags' default memory share, no Hadoop setting of its own), at
 * decreasing heaps in child JVMs (local mode). At each heap both variants run the same queries in
 * one JVM each, once: wherever stock Pig finished a query, the recipe must have finished it too,
 * with the same output lines (compared sorted: Pig does not order a GROUP's output). A heap where
 * stock Pig finishes nothing ends the sweep. A query is never re-run: the first attempt at each
 * heap is the one compared, so a recipe that dies sometimes fails the test sometimes, never passes
 * by retrying.
 *
 * <p>Both variants run with {@link PigJvm}'s Hadoop settings ({@code mapreduce.task.io.sort.mb=16},
 * so that the heaps stay small enough for CI); the recipe adds none. At 60 MB both finish every
 * query, the recipe's bags spilling; at 44 MB stock Pig finishes the first query only.
 *
 * <p>Both children get {@code -XX:+ExitOnOutOfMemoryError}, so running out of heap ends the child
 * at once (Hadoop's local runner would otherwise catch the error in a task thread and Pig report a
 * failed job, or the JVM thrash) and the queries it finished before are kept.
 */
class PigHeapSweepTest {
  private static final PigQuery[] QUERIES = {
    PigQuery.ANCHORTEXT, PigQuery.QUANTILES, PigQuery.MEDIAN
  };
  private static final String[] HEAPS = {"60m", "44m"};

  private static Path root;
  private static Path pages;

  @BeforeAll
  static void generate() throws IOException {
    root = Files.createTempDirectory("pig-heap-sweep-");
    pages = root.resolve("pages");
    new WebCrawlGenerator(20142).write(pages, 150_000, 2);
  }

  @AfterAll
  static void cleanUp() {
    TestDirs.deleteTree(root);
  }

  private static PigJvm child(String heap, Path work) {
    return new PigJvm(pages, work)
        .heap(heap)
        .jvmOptions("-XX:+ExitOnOutOfMemoryError")
        .queries(QUERIES);
  }

  @Test
  void wherever_stock_Pig_finishes_the_recipe_finishes_with_the_same_output() throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-sweep");
    int stockFinishedAtLargest = -1;
    long recipeSpills = 0;
    try {
      for (String heap : HEAPS) {
        PigAttempt stock = child(heap, root.resolve("stock-" + heap)).attempt();
        report("stock", heap, stock);
        if (stockFinishedAtLargest < 0) {
          stockFinishedAtLargest = stock.runs().size();
        }
        if (stock.runs().isEmpty()) {
          break;
        }
        PigAttempt sponge =
            child(heap, root.resolve("sponge-" + heap))
                .recipe()
                .set("sponge.pool.dir", poolDir.toString())
                .set("sponge.pool.name", "pig-sweep")
                .set("sponge.pool.size", "32m")
                .set("sponge.pool.permissions", "rw-------")
                .attempt();
        report("sponge", heap, sponge);
        assertThat(sponge.runs().size())
            .as(
                "queries the recipe finished at %s, where stock Pig finished %d; %s",
                heap, stock.runs().size(), sponge.failure())
            .isGreaterThanOrEqualTo(stock.runs().size());
        for (int i = 0; i < stock.runs().size(); i++) {
          QueryRun expected = stock.runs().get(i);
          QueryRun actual = sponge.runs().get(i);
          assertThat(actual.name()).isEqualTo(expected.name());
          assertThat(PigReference.sortedLines(actual.output()))
              .as("%s at %s: the recipe's output against stock Pig's", actual.name(), heap)
              .isNotEmpty()
              .isEqualTo(PigReference.sortedLines(expected.output()));
          recipeSpills += actual.counter("BAG_SPILLS");
          assertThat(actual.counter("BAG_SPILL_FAILURES")).isZero();
        }
        TestDirs.deleteTree(root.resolve("stock-" + heap));
        TestDirs.deleteTree(root.resolve("sponge-" + heap));
      }
    } finally {
      TestDirs.deleteTree(poolDir);
    }
    assertThat(stockFinishedAtLargest)
        .as("stock Pig finishes every query at the largest heap, %s", HEAPS[0])
        .isEqualTo(QUERIES.length);
    assertThat(recipeSpills).as("the recipe's bags spilled somewhere in the sweep").isPositive();
  }

  private static void report(String variant, String heap, PigAttempt attempt) {
    StringBuilder line = new StringBuilder();
    line.append(variant).append(" at ").append(heap).append(": ");
    line.append(attempt.finished() ? "finished" : "died after " + attempt.runs().size());
    for (QueryRun run : attempt.runs()) {
      line.append(
          String.format(
              " | %s %.1f s, bag spills %d (self %d), pig proactive %d, manager %d",
              run.name(),
              run.millis() / 1e3,
              run.counter("BAG_SPILLS"),
              run.counter("BAG_SELF_SPILLS"),
              run.counter("PROACTIVE_SPILL_COUNT_BAGS"),
              run.counter("SPILLABLE_MEMORY_MANAGER_SPILL_COUNT")));
    }
    System.out.println(line);
  }
}
