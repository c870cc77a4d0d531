package org.spongefiles.it.pig;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * The paper's two Pig queries, run by stock Pig and by Pig following the recipe, in child JVMs with
 * a small heap on the same skewed pages, in local and MapReduce (local job runner) mode. Spilling
 * is made certain by a tight {@code pig.cachedbag.memusage} for stock Pig's internal bags and by
 * telling Pig's memory manager the heap is full every 50 ms; in MapReduce mode the recipe's bags
 * also spill themselves past 1% of the heap. Stock Pig and the recipe run side by side ({@link
 * SideBySide}).
 */
class PigWorkloadsTest {
  private static Path root;
  private static Path pages;
  private static List<String> anchortext;
  private static List<String> quantiles;

  @BeforeAll
  static void generate() throws IOException {
    root = Files.createTempDirectory("pig-workloads-");
    pages = root.resolve("pages");
    new WebCrawlGenerator(20141).write(pages, 30_000, 3);
    anchortext = PigReference.answer(PigQuery.ANCHORTEXT, pages);
    quantiles = PigReference.answer(PigQuery.QUANTILES, pages);
  }

  @AfterAll
  static void cleanUp() {
    TestDirs.deleteTree(root);
  }

  private static PigJvm child(String mode, Path work) {
    return new PigJvm(pages, work)
        .mode(mode)
        .heap("160m")
        .queries(PigQuery.ANCHORTEXT, PigQuery.QUANTILES)
        .set("pig.cachedbag.memusage", "0.02")
        .set("pig.spill.size.threshold", "65536")
        .set("pig.spill.gc.activation.size", Long.toString(Long.MAX_VALUE))
        // MapReduce mode's JobControl looks at its jobs every 5 s (local mode: 100 ms), although
        // they run on the local job runner here
        .set("pig.jobcontrol.sleep", "100")
        .pressure(50)
        .measureTmpWrites();
  }

  @ParameterizedTest
  @ValueSource(strings = {"local", "mapreduce"})
  void theRecipeGivesStockPigsAnswersWithEverySpillInSpongeFiles(String mode) throws Exception {
    Path poolDir = TestDirs.newShmDir("pig-" + mode);
    try {
      PigJvm recipe =
          child(mode, root.resolve("sponge-" + mode))
              .recipe()
              .set("sponge.pool.dir", poolDir.toString())
              .set("sponge.pool.name", "pig-test")
              .set("sponge.pool.size", "1m")
              .set("sponge.pool.permissions", "rw-------")
              .set("sponge.chunk.size", "256k")
              .set("sponge.checksum.block.size", "16k")
              .set("sponge.disk.reserve", "0")
              // Local mode leaves spilling to Pig's memory manager; MapReduce mode lets bags past
              // 1% of the heap spill themselves too.
              .set("sponge.pig.bag.memory", mode.equals("local") ? "0" : "0.01");
      List<List<QueryRun>> both =
          SideBySide.run(child(mode, root.resolve("stock-" + mode)), recipe);
      List<QueryRun> stock = both.get(0);
      List<QueryRun> sponge = both.get(1);

      stock.forEach(run -> System.out.println("stock " + run));
      sponge.forEach(run -> System.out.println("sponge " + run));
      assertThat(stock).hasSize(2);
      assertThat(sponge).hasSize(2);
      for (int i = 0; i < 2; i++) {
        List<String> expected = i == 0 ? anchortext : quantiles;
        assertThat(PigReference.sortedLines(stock.get(i).output()))
            .as("stock Pig, %s", stock.get(i).name())
            .isEqualTo(expected);
        assertThat(PigReference.sortedLines(sponge.get(i).output()))
            .as("Pig with SpongeFiles bags, %s", sponge.get(i).name())
            .isEqualTo(expected);

        assertThat(stock.get(i).tmpBytes()).as("stock Pig spills to java.io.tmpdir").isPositive();
        QueryRun ours = sponge.get(i);
        assertThat(ours.counter("BAG_SPILLS")).as("bag spills of %s", ours).isPositive();
        assertThat(ours.counter("BAG_SPILL_FAILURES")).isZero();
        if (mode.equals("local")) {
          assertThat(ours.counter("BAG_SELF_SPILLS")).isZero();
          // Our spill() counts each of the memory manager's spills in Pig's counter, then
          // publishes ours. Seen once in CI: Pig's 13, ours 12 (and 12 SpongeFiles created), most
          // likely a spill at the task's very end whose two counts straddled the collection of the
          // task's counters; one spill at most can.
          assertThat(ours.counter("SPILLABLE_MEMORY_MANAGER_SPILL_COUNT"))
              .isBetween(ours.counter("BAG_SPILLS"), ours.counter("BAG_SPILLS") + 1);
        } else {
          assertThat(ours.counter("BAG_SELF_SPILLS")).as("self spills of %s", ours).isPositive();
          assertThat(ours.counter("PROACTIVE_SPILL_COUNT_BAGS"))
              .isEqualTo(ours.counter("BAG_SELF_SPILLS"));
        }
        assertThat(ours.spongeBytesWritten()).as("SpongeFile bytes of %s", ours).isPositive();
        assertThat(ours.tmpBytes()).as("bytes to java.io.tmpdir with the recipe").isZero();
        assertThat(ours.tmpBagFilesLeft()).isZero();
      }
      assertThat(
              sponge.get(0).counter("DISK_BYTES_WRITTEN")
                  + sponge.get(1).counter("DISK_BYTES_WRITTEN"))
          .as("runs past the 1 MiB pool go to disk")
          .isPositive();
      // A spilled bag may be dead before it is read (Pig drops group bags without clear()), so
      // reading back is checked over both queries: Frequent Anchortext reads its group twice.
      assertThat(
              sponge.get(0).counter("POOL_BYTES_READ") + sponge.get(1).counter("POOL_BYTES_READ"))
          .as("runs read back from the pool")
          .isPositive();
      assertThat(
              sponge.get(0).counter("POOL_BYTES_WRITTEN")
                  + sponge.get(1).counter("POOL_BYTES_WRITTEN"))
          .as("runs in the pool")
          .isPositive();
      assertThat(filesUnder(recipe.tmpDir())).isZero();
      assertThat(freeChunksAfterExit(poolDir)).as("every pool chunk freed at exit").isTrue();
      assertThat(filesUnder(root.resolve("sponge-" + mode).resolve("hadoop"), "spongefiles"))
          .as("disk chunks deleted")
          .isZero();
    } finally {
      TestDirs.deleteTree(poolDir);
    }
  }

  private static boolean freeChunksAfterExit(Path poolDir) throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.name", "pig-test");
    conf.set("sponge.pool.size", "1m");
    conf.set("sponge.chunk.size", "256k");
    conf.set("sponge.pool.create", "false");
    try (SharedPool pool = SharedPool.open(SpongeSettings.poolSpec(ConfigValues.reading(conf)))) {
      return pool.freeChunks() == pool.chunkCount();
    }
  }

  private static long filesUnder(Path dir) throws IOException {
    return TestDirs.countFiles(dir);
  }

  /** Regular files under {@code dir} whose path contains {@code part}. */
  private static long filesUnder(Path dir, String part) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).filter(p -> p.toString().contains(part)).count();
    }
  }
}
