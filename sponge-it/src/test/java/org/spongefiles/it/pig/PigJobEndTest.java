package org.spongefiles.it.pig;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.pig.PigAttempt;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * Nothing of a finished job's SpongeFiles stays reachable while the next job of the script runs:
 * the skewed JOIN (three jobs in one local-mode JVM, as Pig runs a script's jobs) by the recipe,
 * its bags' share at 0.2% of the heap so that they spill, and after each job no {@code SpongeTask}
 * and no {@code SpongeFile} is strongly reachable (class histograms after full collections, in the
 * child, at each job's end; Pig itself keeps the finished task's bags reachable, and before issue
 * 33 they kept its closed SpongeTask). The output equals stock Pig's.
 */
class PigJobEndTest {
  private static Path root;
  private static Path pages;

  @BeforeAll
  static void generate() throws IOException {
    root = Files.createTempDirectory("pig-job-end-");
    pages = root.resolve("pages");
    new WebCrawlGenerator(20144).write(pages, 30_000, 2);
  }

  @AfterAll
  static void cleanUp() {
    TestDirs.deleteTree(root);
  }

  @Test
  void afterEachJobOfAScriptNoneOfItsSpongeFilesIsReachable() throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-job-end");
    try {
      List<QueryRun> stock =
          new PigJvm(pages, root.resolve("stock")).heap("256m").queries(PigQuery.SKEWED_JOIN).run();
      PigAttempt recipe =
          new PigJvm(pages, root.resolve("recipe"))
              .heap("256m")
              .queries(PigQuery.SKEWED_JOIN)
              .recipe()
              .set("sponge.pool.dir", poolDir.toString())
              .set("sponge.pool.name", "pig-job-end")
              .set("sponge.pool.size", "32m")
              .set("sponge.pool.permissions", "rw-------")
              .set("sponge.pig.bag.memory", "0.002")
              .reportHeldAfterJobs()
              .attempt();
      assertThat(recipe.finished()).as(recipe.failure()).isTrue();
      QueryRun joined = recipe.runs().get(0);
      System.out.println("recipe " + joined + " held after each job " + recipe.held());

      assertThat(PigReference.sortedLines(joined.output()))
          .as("the recipe's skewed JOIN against stock Pig's")
          .isNotEmpty()
          .isEqualTo(PigReference.sortedLines(stock.get(0).output()));
      assertThat(joined.counter("BAG_SPILLS")).as("the recipe's bags spilled").isPositive();
      assertThat(recipe.held()).as("one line per job of the script").hasSize(3);
      assertThat(recipe.held())
          .allSatisfy(
              line ->
                  assertThat(line)
                      .contains("org.spongefiles.core.SpongeTask=0")
                      .contains("org.spongefiles.core.SpongeFile=0"));
    } finally {
      TestDirs.deleteTree(poolDir);
    }
  }
}
