package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.util.Progress;
import org.junit.jupiter.api.Test;

/** Hadoop's shuffle memory keys keep the meaning Hadoop's merger gives them. */
class ShuffleMemoryTest {

  @Test
  void defaultsAreHadoops() {
    Configuration conf = new Configuration(false);
    conf.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 1_000_000_000L);

    ShuffleMemory memory = ShuffleMemory.from(conf);

    assertThat(memory.memoryLimit).isEqualTo(700_000_000L);
    assertThat(memory.maxSingleShuffle).isEqualTo(175_000_000L);
    // Hadoop multiplies by a float too: 462,000,032, not 462,000,000.
    assertThat(memory.mergeThreshold).isEqualTo((long) (700_000_000L * 0.66f));
    assertThat(memory.mergeCount).isEqualTo(1000);
    assertThat(memory.maxInMemReduce).isZero();
  }

  @Test
  void tuningKeepsItsMeaning() {
    Configuration conf = new Configuration(false);
    conf.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 1_000_000L);
    conf.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.5f);
    conf.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0.1f);
    conf.setFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, 0.8f);
    conf.setInt(MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD, 0);
    conf.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0.25f);

    ShuffleMemory memory = ShuffleMemory.from(conf);

    assertThat(memory.memoryLimit).isEqualTo(500_000L);
    assertThat(memory.maxSingleShuffle).isEqualTo(50_000L);
    assertThat(memory.mergeThreshold).isEqualTo(400_000L);
    assertThat(memory.mergeCount).isZero();
    assertThat(memory.maxInMemReduce).isEqualTo(125_000L);
  }

  /**
   * Hadoop's own merge manager, built from the same configurations, computes the same limits (read
   * from its fields, which are not public). In Hadoop 3 {@code
   * mapreduce.reduce.input.buffer.percent} is a share of the memory limit ({@code
   * MergeManagerImpl.getMaxInMemReduceLimit()}), not of the heap as in Hadoop 1 and early Hadoop 2.
   */
  @Test
  void hadoopsOwnMergeManagerComputesTheSameLimits() throws Throwable {
    JobConf tuned = new JobConf(false);
    tuned.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 1_000_000L);
    tuned.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.5f);
    tuned.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0.1f);
    tuned.setFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, 0.8f);
    tuned.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0.25f);
    JobConf heap = new JobConf(false);
    heap.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0.6f);
    JobConf huge = new JobConf(false);
    huge.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 100L << 30);
    huge.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 1f);

    for (JobConf conf : List.of(tuned, heap, huge)) {
      ShuffleMemory ours = ShuffleMemory.from(conf);
      MergeManagerImpl<Text, IntWritable> hadoops = hadoopsMergeManager(conf);
      try {
        assertThat(ours.memoryLimit).isEqualTo(field(hadoops, "memoryLimit"));
        assertThat(ours.maxSingleShuffle).isEqualTo(field(hadoops, "maxSingleShuffleLimit"));
        assertThat(ours.mergeThreshold).isEqualTo(field(hadoops, "mergeThreshold"));
        Method maxInMemReduce = MergeManagerImpl.class.getDeclaredMethod("getMaxInMemReduceLimit");
        maxInMemReduce.setAccessible(true);
        assertThat(ours.maxInMemReduce).isEqualTo(maxInMemReduce.invoke(hadoops)).isPositive();
      } finally {
        hadoops.close();
      }
    }
  }

  private static MergeManagerImpl<Text, IntWritable> hadoopsMergeManager(JobConf conf)
      throws IOException {
    conf.setMapOutputKeyClass(Text.class);
    conf.setMapOutputValueClass(IntWritable.class);
    Counters counters = new Counters();
    return new MergeManagerImpl<>(
        ShuffleHarness.REDUCE,
        conf,
        FileSystem.getLocal(conf),
        new LocalDirAllocator(MRConfig.LOCAL_DIR),
        Reporter.NULL,
        null,
        null,
        null,
        counters.findCounter(TaskCounter.SPILLED_RECORDS),
        counters.findCounter(TaskCounter.COMBINE_INPUT_RECORDS),
        counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS),
        failure -> {},
        new Progress(),
        new MROutputFiles());
  }

  private static long field(MergeManagerImpl<?, ?> manager, String name)
      throws ReflectiveOperationException {
    Field field = MergeManagerImpl.class.getDeclaredField(name);
    field.setAccessible(true);
    return field.getLong(manager);
  }

  @Test
  void zeroSingleShuffleLimitSendsEveryOutputToSpongeFilesAsDocumented() {
    Configuration conf = new Configuration(false);
    conf.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0f);

    assertThat(ShuffleMemory.from(conf).maxSingleShuffle).isZero();
  }

  @Test
  void aSingleOutputLimitAboveTheMergeThresholdNamesTheKey() {
    Configuration conf = new Configuration(false);
    conf.setFloat(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, 0.9f);

    assertThatThrownBy(() -> ShuffleMemory.from(conf))
        .hasMessageStartingWith(
            "Invalid value 0.9 for configuration mapreduce.reduce.shuffle.memory.limit.percent")
        .hasMessageContaining("mapreduce.reduce.shuffle.merge.percent=0.66");
  }

  @Test
  void fractionsOutsideZeroToOneNameTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, "lots");

    assertThatThrownBy(() -> ShuffleMemory.from(conf))
        .hasMessage(
            "Invalid value lots for configuration mapreduce.reduce.input.buffer.percent:"
                + " not a number");
  }

  @Test
  void wholeNumbersWithASizeSuffixNameTheKey() {
    Configuration conf = new Configuration(false);
    conf.set(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, "64m");

    assertThatThrownBy(() -> ShuffleMemory.from(conf))
        .hasMessage(
            "Invalid value 64m for configuration mapreduce.reduce.memory.totalbytes:"
                + " not a whole number (Hadoop reads it without a size suffix)");

    conf.set(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, "67108864");
    conf.setLong(MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD, 1L << 40);
    assertThatThrownBy(() -> ShuffleMemory.from(conf))
        .hasMessageStartingWith(
            "Invalid value 1099511627776 for configuration mapreduce.reduce.merge.inmem.threshold:"
                + " must be at most");
  }

  @Test
  void setupEnablesThePluginThroughHadoopsKey() {
    JobConf conf = new JobConf(false);
    assertThat(SpongeMergerSetup.isEnabled(conf)).isFalse();

    SpongeMergerSetup.enableWithFallback(conf);

    assertThat(conf.get(MRConfig.SHUFFLE_CONSUMER_PLUGIN))
        .isEqualTo("org.spongefiles.merger.SpongeShuffle");
    assertThat(SpongeMergerSetup.isEnabled(conf)).isTrue();
    assertThat(MergerOptions.FALLBACK.get(conf)).isTrue();
  }
}
