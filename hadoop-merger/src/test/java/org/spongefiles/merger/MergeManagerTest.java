package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.testkit.CountingConfiguration;
import org.spongefiles.testkit.TestDirs;

/**
 * The merge manager driven as Hadoop's fetchers drive it: Hadoop's memory model decides what stays
 * in memory, what streams into a SpongeFile and when a fetcher must wait, and the final merge
 * yields every record fetched, in order.
 */
class MergeManagerTest {
  private Path pool;
  private Path disk;
  private ShuffleHarness harness;
  private SpongeShuffle<Text, IntWritable> shuffle;

  @BeforeEach
  void setUp() {
    pool = TestDirs.newShmDir("manager-pool");
    disk = TestDirs.newShmDir("manager-disk");
    harness = new ShuffleHarness(pool, disk);
    // 1 MiB "heap": 734,003 bytes of shuffle memory, 183,500 per output, merge at 484,441.
    harness.conf.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 1L << 20);
    shuffle = new SpongeShuffle<>();
  }

  @AfterEach
  void tearDown() {
    shuffle.close();
    TestDirs.deleteTree(pool);
    TestDirs.deleteTree(disk);
  }

  @Test
  void memoryModelBackPressureAndFinalMergeAsHadoopFetchersSeeThem() throws Throwable {
    MergeManager<Text, IntWritable> manager = shuffle.createMergeManager(harness.context(null));
    Map<String, Integer> all = new TreeMap<>();
    List<byte[]> small = new ArrayList<>();
    List<TaskAttemptID> ids = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      small.add(harness.mapOutput(records("m" + i, 8_500, all)));
      ids.add(harness.nextMap());
    }
    byte[] large = harness.mapOutput(records("big", 13_000, all));
    assertThat(small.get(0).length).isBetween(120_000, 150_000);
    assertThat(large.length).isGreaterThan(183_500);

    List<MapOutput<Text, IntWritable>> reserved = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      MapOutput<Text, IntWritable> output = manager.reserve(ids.get(i), small.get(i).length - 4, 0);
      assertThat(output.getDescription()).isEqualTo("MEMORY");
      reserved.add(output);
    }
    // Six outputs took the memory past its limit: the next fetcher is told to wait...
    assertThat(manager.reserve(ids.get(6), small.get(6).length - 4, 0)).isNull();
    // ...while an output too large for memory streams into a SpongeFile at once.
    MapOutput<Text, IntWritable> spilled = manager.reserve(harness.nextMap(), large.length - 4, 1);
    assertThat(spilled.getDescription()).isEqualTo("SPONGEFILE");
    harness.fetch(spilled, large);

    for (int i = 0; i < 4; i++) {
      harness.fetch(reserved.get(i), small.get(i));
    }
    // Four committed outputs passed the merge threshold: the in-memory merge frees their memory.
    manager.waitForResource();
    MapOutput<Text, IntWritable> late = manager.reserve(ids.get(6), small.get(6).length - 4, 0);
    assertThat(late).isNotNull();
    harness.fetch(reserved.get(4), small.get(4));
    harness.fetch(reserved.get(5), small.get(5));
    harness.fetch(late, small.get(6));

    List<String> merged = ShuffleHarness.drain(manager.close());
    shuffle.close();

    List<String> expected = new ArrayList<>();
    all.forEach((k, v) -> expected.add(k + "=" + v));
    assertThat(merged).isEqualTo(expected);
    assertThat(harness.sponge(MergerCounter.MAP_OUTPUTS_IN_MEMORY.name())).isEqualTo(7);
    assertThat(harness.sponge(MergerCounter.MAP_OUTPUTS_SPILLED.name())).isEqualTo(1);
    assertThat(harness.sponge(MergerCounter.IN_MEMORY_MERGES.name())).isEqualTo(1);
    assertThat(harness.sponge(MergerCounter.MEMORY_FLUSHES.name())).isEqualTo(1);
    assertThat(harness.sponge(MergerCounter.INTERMEDIATE_MERGES.name())).isZero();
    assertThat(harness.sponge(MergerCounter.FINAL_MERGE_SEGMENTS.name())).isEqualTo(3);
    assertThat(harness.counter(TaskCounter.MERGED_MAP_OUTPUTS)).isEqualTo(8);
    // Every record went into exactly one SpongeFile and was read back once.
    assertThat(harness.counter(TaskCounter.SPILLED_RECORDS)).isEqualTo(all.size());
    long written = harness.sponge("POOL_BYTES_WRITTEN");
    assertThat(written).isGreaterThan(7L * 120_000 + large.length);
    assertThat(harness.sponge("POOL_BYTES_READ")).isEqualTo(written);
  }

  @Test
  void keepsInMemoryOutputsForTheReduceWithinItsInputBuffer() throws Throwable {
    harness.conf.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0.5f);
    MergeManager<Text, IntWritable> manager = shuffle.createMergeManager(harness.context(null));
    Map<String, Integer> all = fetchThreeOutputs(manager);

    List<String> merged = ShuffleHarness.drain(manager.close());
    shuffle.close();

    assertThat(merged).hasSize(all.size());
    // 367,001 bytes may stay for the reduce: the smallest output is flushed, two stay in memory.
    assertThat(harness.sponge(MergerCounter.MEMORY_FLUSHES.name())).isEqualTo(1);
    assertThat(harness.sponge(MergerCounter.FINAL_MERGE_SEGMENTS.name())).isEqualTo(3);
    assertThat(harness.counter(TaskCounter.SPILLED_RECORDS)).isEqualTo(8_500);
  }

  /** Sponge-core's and the merger's keys are parsed once, at the start, for the whole task. */
  @Test
  void aReduceThatSpillsAndMergesReadsEachSpongeKeyOnce() throws Throwable {
    CountingConfiguration conf = new CountingConfiguration(harness.conf);
    harness = new ShuffleHarness(conf);
    MergeManager<Text, IntWritable> manager = shuffle.createMergeManager(harness.context(null));
    Map<String, Integer> all = fetchThreeOutputs(manager);

    List<String> merged = ShuffleHarness.drain(manager.close());
    shuffle.close();

    List<String> expected = new ArrayList<>();
    all.forEach((k, v) -> expected.add(k + "=" + v));
    assertThat(merged).isEqualTo(expected);
    assertThat(harness.counter(TaskCounter.SPILLED_RECORDS)).isPositive();
    assertThat(conf.readMoreThanOnce()).isEmpty();
    assertThat(conf.reads(SpongeOptions.CHUNK_SIZE.key())).isEqualTo(1);
    assertThat(conf.reads(MergerOptions.READ_BUFFER_TOTAL.key())).isEqualTo(1);
    assertThat(conf.reads(MergerOptions.FALLBACK.key())).isEqualTo(1);
  }

  @Test
  void aMergeAskedOfAClosedInMemoryMergerNamesTheAttempt() throws Exception {
    InMemoryMerger<Text, IntWritable> merger =
        new InMemoryMerger<>(ShuffleHarness.REDUCE.toString(), null, null, null, null, null);
    merger.close();

    assertThatThrownBy(() -> merger.startMerge(List.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "in-memory merger of "
                + ShuffleHarness.REDUCE
                + " is closed; cannot merge 0 more map outputs");
  }

  /**
   * Three map outputs of 8,500 distinct records each, fetched into {@code manager}: all of them.
   */
  private Map<String, Integer> fetchThreeOutputs(MergeManager<Text, IntWritable> manager)
      throws IOException {
    Map<String, Integer> all = new TreeMap<>();
    for (int i = 0; i < 3; i++) {
      byte[] ifile = harness.mapOutput(records("m" + i, 8_500, all));
      harness.fetch(manager.reserve(harness.nextMap(), ifile.length - 4, 0), ifile);
    }
    return all;
  }

  /** {@code count} records {@code prefix-<n>} with distinct values, added to {@code all}. */
  private static Map<String, Integer> records(String prefix, int count, Map<String, Integer> all) {
    Map<String, Integer> records = new TreeMap<>();
    for (int n = 0; n < count; n++) {
      String key = String.format("%s-%06d", prefix, n);
      records.put(key, all.size());
      all.put(key, all.size());
    }
    return records;
  }
}
