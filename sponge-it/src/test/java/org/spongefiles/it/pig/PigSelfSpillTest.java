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
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * Who fills a bag decides whether it spills itself, in real Pig scripts (local mode, child JVMs
 * with a 256 MB heap, bags' share 0.2% of it): the Spam Quantiles UDF's sorted bags, which stock
 * Pig never spills by themselves ({@code BagFactory.newSortedBag} gives a SortedDataBag), and the
 * bags of a nested ORDER and two nested DISTINCTs, which stock Pig gives InternalSortedBag(3) and
 * InternalDistinctBag(3). Pig's secondary-key optimization is off, so that every nested ORDER and
 * DISTINCT builds a bag, and the GROUP's bags are Pig's own ({@code pig.cachedbag.type} not {@code
 * default}), so that the SpongeFiles counters count only the UDF's and the nested operators' bags.
 * With the default {@code sponge.pig.bag.self.spill=pig} the UDF's bags never spill themselves and
 * the nested operators' do; with {@code always} the UDF's do too. Outputs equal stock Pig's.
 */
class PigSelfSpillTest {
  private static Path root;
  private static Path pages;

  @BeforeAll
  static void generate() throws IOException {
    root = Files.createTempDirectory("pig-self-spill-");
    pages = root.resolve("pages");
    new WebCrawlGenerator(20143).write(pages, 20_000, 2);
  }

  @AfterAll
  static void cleanUp() {
    TestDirs.deleteTree(root);
  }

  private static PigJvm child(String name) {
    return new PigJvm(pages, root.resolve(name))
        .heap("256m")
        .queries(PigQuery.QUANTILES, PigQuery.MEDIAN)
        .set("pig.exec.nosecondarykey", "true");
  }

  private static PigJvm recipe(String selfSpill, Path poolDir) {
    return child("recipe-" + selfSpill)
        .recipe()
        .set("pig.cachedbag.type", "internal")
        .set("sponge.pool.dir", poolDir.toString())
        .set("sponge.pool.name", "pig-self-spill")
        .set("sponge.pool.size", "32m")
        .set("sponge.pool.permissions", "rw-------")
        .set("sponge.pig.bag.memory", "0.002")
        .set("sponge.pig.bag.self.spill", selfSpill);
  }

  @Test
  void aUdfsSortedBagsWaitForPigsMemoryManagerWhileNestedOrdersSpillThemselves() throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-self-spill");
    try {
      List<QueryRun> stock = child("stock").run();
      List<QueryRun> pig = recipe("pig", poolDir).run();
      List<QueryRun> always = recipe("always", poolDir).run();
      stock.forEach(run -> System.out.println("stock " + run));
      pig.forEach(run -> System.out.println("recipe, self.spill=pig " + run));
      always.forEach(run -> System.out.println("recipe, self.spill=always " + run));

      for (List<QueryRun> recipe : List.of(pig, always)) {
        assertThat(recipe).hasSize(2);
        for (int q = 0; q < 2; q++) {
          assertThat(PigReference.sortedLines(recipe.get(q).output()))
              .as("%s: the recipe's output against stock Pig's", recipe.get(q))
              .isNotEmpty()
              .isEqualTo(PigReference.sortedLines(stock.get(q).output()));
          assertThat(recipe.get(q).counter("BAG_SPILL_FAILURES")).isZero();
        }
      }
      QueryRun udf = pig.get(0);
      QueryRun nested = pig.get(1);
      assertThat(udf.name()).isEqualTo("quantiles");
      assertThat(udf.counter("BAG_SELF_SPILLS")).as("the UDF's sorted bags, %s", udf).isZero();
      assertThat(nested.counter("BAG_SELF_SPILLS"))
          .as("nested ORDER and DISTINCT bags, %s", nested)
          .isPositive();
      assertThat(always.get(0).counter("BAG_SELF_SPILLS"))
          .as("the UDF's sorted bags with self.spill=always, %s", always.get(0))
          .isPositive();
    } finally {
      TestDirs.deleteTree(poolDir);
    }
  }

  /**
   * A COGROUP's bags, which Pig's Packager fills for both inputs of a key, spill themselves past
   * the share as a GROUP's do (ours each get all of it, stock Pig's half) and come back whole: the
   * recipe as shipped (the COGROUP's bags ours, the secondary key on) with the bags' share small
   * enough that the large domains' bags pass it. The output equals stock Pig's.
   */
  @Test
  void aCogroupsBagsSpillThemselvesAndComeBackWhole() throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-cogroup");
    try {
      QueryRun stock =
          new PigJvm(pages, root.resolve("cogroup-stock"))
              .heap("256m")
              .queries(PigQuery.COGROUP)
              .run()
              .get(0);
      QueryRun recipe =
          new PigJvm(pages, root.resolve("cogroup-recipe"))
              .heap("256m")
              .queries(PigQuery.COGROUP)
              .recipe()
              .set("sponge.pool.dir", poolDir.toString())
              .set("sponge.pool.name", "pig-cogroup")
              .set("sponge.pool.size", "32m")
              .set("sponge.pool.permissions", "rw-------")
              .set("sponge.pig.bag.memory", "0.002")
              .run()
              .get(0);
      System.out.println("stock " + stock);
      System.out.println("recipe " + recipe);

      assertThat(PigReference.sortedLines(recipe.output()))
          .as("the recipe's COGROUP against stock Pig's")
          .isNotEmpty()
          .isEqualTo(PigReference.sortedLines(stock.output()));
      assertThat(recipe.counter("BAG_SELF_SPILLS")).as("%s", recipe).isPositive();
      assertThat(recipe.counter("BAG_SPILL_FAILURES")).isZero();
    } finally {
      TestDirs.deleteTree(poolDir);
    }
  }
}
