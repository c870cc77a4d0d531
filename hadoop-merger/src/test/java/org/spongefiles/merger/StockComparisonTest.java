package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The same LocalJobRunner jobs with Hadoop's merger and with ours, on shuffle memory so small that
 * the reduce side spills: the outputs must be identical byte for byte and equal to the result
 * computed directly, and the counters must show the spills went to SpongeFiles, not to the task's
 * local directories.
 */
class StockComparisonTest {
  private LocalJobs jobs;

  @BeforeEach
  void setUp() throws Exception {
    jobs = new LocalJobs();
  }

  @AfterEach
  void tearDown() {
    jobs.close();
  }

  @Test
  void wordCountWithCombinerMatchesStockAndSpillsToThePool() throws Exception {
    Path input = jobs.newInput();
    Map<String, Integer> expected = TestJobs.writeWords(input, 14, 3_000, 60_000);

    LocalJobs.Run stock = jobs.stock(TestJobs::wordCount, input, conf -> {});
    LocalJobs.Run ours = jobs.sponge(TestJobs::wordCount, input, conf -> {});

    assertSameOutput(stock, ours, TestJobs.render(expected));
    assertSpilledToSpongeFilesOnly(stock, ours);
    assertThat(ours.sponge(MergerCounter.MAP_OUTPUTS_SPILLED)).isPositive();
    assertThat(ours.sponge(MergerCounter.MAP_OUTPUTS_IN_MEMORY)).isPositive();
    assertThat(ours.sponge(MergerCounter.IN_MEMORY_MERGES)).isPositive();
    assertThat(ours.task(TaskCounter.MERGED_MAP_OUTPUTS))
        .isEqualTo(stock.task(TaskCounter.MERGED_MAP_OUTPUTS))
        .isEqualTo(14);
    // Hadoop's merger runs only old-API combiners in its in-memory merges; ours runs this one too.
    assertThat(reduceSideCombineInput(stock)).isZero();
    assertThat(reduceSideCombineInput(ours)).isPositive();
  }

  @Test
  void oldApiWordCountCombinesInMemoryMergesAsHadoopDoes() throws Exception {
    Path input = jobs.newInput();
    Map<String, Integer> expected = TestJobs.writeWords(input, 14, 3_000, 60_000);

    LocalJobs.Run stock = jobs.stock(TestJobs::oldApiWordCount, input, conf -> {});
    LocalJobs.Run ours = jobs.sponge(TestJobs::oldApiWordCount, input, conf -> {});

    assertSameOutput(stock, ours, TestJobs.render(expected));
    assertSpilledToSpongeFilesOnly(stock, ours);
    assertThat(ours.sponge(MergerCounter.IN_MEMORY_MERGES)).isPositive();
    assertThat(reduceSideCombineInput(stock)).isPositive();
    assertThat(reduceSideCombineInput(ours)).isPositive();
  }

  @Test
  void secondarySortWithGroupingComparatorMatchesStock() throws Exception {
    Path input = jobs.newInput();
    Map<String, String> expected = TestJobs.writeGroups(input, 300, 40_000);

    LocalJobs.Run stock = jobs.stock(TestJobs::secondarySort, input, conf -> {});
    LocalJobs.Run ours = jobs.sponge(TestJobs::secondarySort, input, conf -> {});

    assertThat(ours.succeeded).isTrue();
    assertThat(ours.output).isEqualTo(stock.output);
    List<String> lines = new ArrayList<>(ours.lines());
    lines.sort(null);
    List<String> reference = new ArrayList<>();
    expected.forEach((group, values) -> reference.add(group + "\t" + values));
    reference.sort(null);
    assertThat(lines).isEqualTo(reference);
    assertSpilledToSpongeFilesOnly(stock, ours);
  }

  @Test
  void spilledRecordsAndMergedOutputsCountAsHadoopCountsThem() throws Exception {
    Path input = jobs.newInput();
    TestJobs.writeGroups(input, 50, 20_000);
    // Every map output goes to disk (Hadoop) or straight into a SpongeFile (ours), so each reduce
    // input record is spilled exactly once and read back once, on top of the map side's one spill.
    LocalJobs.Run stock =
        jobs.stock(TestJobs::secondarySort, input, c -> c.set(SHUFFLE_SINGLE_LIMIT, "0.0001"));
    LocalJobs.Run ours =
        jobs.sponge(TestJobs::secondarySort, input, c -> c.set(SHUFFLE_SINGLE_LIMIT, "0.0001"));

    assertThat(ours.output).isEqualTo(stock.output);
    assertThat(ours.sponge(MergerCounter.MAP_OUTPUTS_SPILLED)).isEqualTo(3 * 2);
    assertThat(ours.sponge(MergerCounter.MAP_OUTPUTS_IN_MEMORY)).isZero();
    long records = ours.task(TaskCounter.REDUCE_INPUT_RECORDS);
    assertThat(records).isEqualTo(60_000);
    assertThat(ours.task(TaskCounter.SPILLED_RECORDS))
        .isEqualTo(stock.task(TaskCounter.SPILLED_RECORDS))
        .isEqualTo(ours.task(TaskCounter.MAP_OUTPUT_RECORDS) + records);
    assertThat(ours.task(TaskCounter.MERGED_MAP_OUTPUTS))
        .isEqualTo(stock.task(TaskCounter.MERGED_MAP_OUTPUTS))
        .isEqualTo(3 * 2);
  }

  @Test
  void compressedMapOutputsStayCompressedInSpongeFiles() throws Exception {
    Path input = jobs.newInput();
    Map<String, Integer> expected = TestJobs.writeWords(input, 14, 3_000, 60_000);
    java.util.function.Consumer<org.apache.hadoop.conf.Configuration> compress =
        conf -> {
          conf.setBoolean("mapreduce.map.output.compress", true);
          conf.set(
              "mapreduce.map.output.compress.codec", "org.apache.hadoop.io.compress.DefaultCodec");
        };

    LocalJobs.Run stock = jobs.stock(TestJobs::wordCount, input, compress);
    LocalJobs.Run ours = jobs.sponge(TestJobs::wordCount, input, compress);
    LocalJobs.Run plain = jobs.sponge(TestJobs::wordCount, input, conf -> {});

    assertSameOutput(stock, ours, TestJobs.render(expected));
    assertSpilledToSpongeFilesOnly(stock, ours);
    assertThat(ours.sponge(MergerCounter.MAP_OUTPUTS_SPILLED)).isPositive();
    assertThat(plain.output).isEqualTo(ours.output);
    assertThat(ours.sponge("POOL_BYTES_WRITTEN"))
        .isLessThan(plain.sponge("POOL_BYTES_WRITTEN") / 2);
  }

  @Test
  void aThousandTinyMapOutputsMatchStock() throws Exception {
    Path input = jobs.newInput();
    int maps = 1000;
    TestJobs.writeLines(input, maps);
    StringBuilder expected = new StringBuilder();
    TestJobs.expectedSums(maps)
        .forEach((k, v) -> expected.append(k).append('\t').append(v).append('\n'));

    LocalJobs.Run stock = jobs.stock(TestJobs::oneMapPerLine, input, TINY_MAPS);
    LocalJobs.Run ours = jobs.sponge(TestJobs::oneMapPerLine, input, TINY_MAPS);

    assertSameOutput(stock, ours, expected.toString());
    assertThat(ours.task(TaskCounter.MERGED_MAP_OUTPUTS)).isEqualTo(maps);
    assertThat(ours.sponge(MergerCounter.MAP_OUTPUTS_IN_MEMORY)).isEqualTo(maps);
    // mapreduce.reduce.merge.inmem.threshold (1000 outputs) starts the merge, not the bytes.
    assertThat(ours.sponge(MergerCounter.IN_MEMORY_MERGES)).isEqualTo(1);
    assertThat(ours.reduceSpillFiles).isEmpty();
    assertThat(ours.sponge("POOL_BYTES_WRITTEN")).isPositive();
  }

  private static final String SHUFFLE_SINGLE_LIMIT =
      "mapreduce.reduce.shuffle.memory.limit.percent";

  private static final java.util.function.Consumer<org.apache.hadoop.conf.Configuration> TINY_MAPS =
      conf -> {
        conf.setInt("mapreduce.task.io.sort.mb", 1);
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
      };

  static void assertSameOutput(LocalJobs.Run stock, LocalJobs.Run ours, String expected) {
    assertThat(stock.succeeded).as("stock job succeeded").isTrue();
    assertThat(ours.succeeded).as("SpongeFiles job succeeded").isTrue();
    assertThat(ours.output).isEqualTo(stock.output);
    assertThat(new String(ours.output, StandardCharsets.UTF_8)).isEqualTo(expected);
  }

  /** Hadoop's merger wrote spill files in the local dirs; ours wrote none, all in the pool. */
  static void assertSpilledToSpongeFilesOnly(LocalJobs.Run stock, LocalJobs.Run ours) {
    assertThat(stock.reduceSpillFiles).as("Hadoop's reduce-side spill files").isNotEmpty();
    assertThat(ours.reduceSpillFiles).as("reduce-side spill files with SpongeFiles").isEmpty();
    long written = ours.sponge("POOL_BYTES_WRITTEN");
    assertThat(written).isPositive();
    assertThat(ours.sponge("POOL_BYTES_READ")).isEqualTo(written);
    assertThat(ours.sponge("DISK_BYTES_WRITTEN")).isZero();
    assertThat(ours.sponge("FILES_CREATED")).isPositive();
  }

  /** Combiner input records on the reduce side: the job's total less the map side's. */
  static long reduceSideCombineInput(LocalJobs.Run run) {
    return run.task(TaskCounter.COMBINE_INPUT_RECORDS) - run.task(TaskCounter.MAP_OUTPUT_RECORDS);
  }
}
