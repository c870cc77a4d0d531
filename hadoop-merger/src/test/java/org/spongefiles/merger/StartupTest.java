package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.security.UserGroupInformation;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.testkit.TestDirs;

/**
 * A reduce task whose SpongeFiles setup is unusable fails at its start with a message naming the
 * key, or, with sponge.merger.fallback=true, runs Hadoop's merger with a warning and a counter.
 */
class StartupTest {
  private Path pool;
  private Path disk;
  private ShuffleHarness harness;

  @BeforeEach
  void setUp() {
    pool = TestDirs.newShmDir("startup-pool");
    disk = TestDirs.newShmDir("startup-disk");
    harness = new ShuffleHarness(pool, disk);
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(pool);
    TestDirs.deleteTree(disk);
  }

  @Test
  void missingPoolDirectoryFailsTheTaskNamingTheKey() {
    Path missing = pool.resolve("no-such-dir");
    SpongeOptions.POOL_DIR.set(harness.conf, missing.toString());

    assertThatStartFails()
        .isInstanceOf(SpongeMergerException.class)
        .hasMessageContaining("sponge.pool.dir=" + missing)
        .hasMessageContaining(ShuffleHarness.REDUCE.toString())
        .hasMessageContaining("sponge.merger.fallback=true");
  }

  @Test
  void invalidSpongeValueFailsTheTaskNamingKeyAndValue() {
    harness.conf.set(SpongeOptions.CHUNK_SIZE.key(), "banana");

    assertThatStartFails()
        .isInstanceOf(SpongeMergerException.class)
        .hasMessageContaining("Invalid value banana for configuration sponge.chunk.size")
        .hasCauseInstanceOf(ConfigException.class);
  }

  @Test
  void invalidMergerValueFailsTheTaskBeforeAnythingOpensNamingKeyAndValue() {
    harness.conf.set(MergerOptions.READ_BUFFER_SIZE.key(), "lots");

    assertThatStartFails()
        .isInstanceOf(SpongeMergerException.class)
        .hasMessageContaining(
            "Invalid value lots for configuration sponge.merger.read.buffer.size: not a byte size")
        .hasMessageContaining("sponge.merger.fallback=true")
        .hasCauseInstanceOf(ConfigException.class);
    assertThat(TestDirs.countFiles(pool)).as("no pool opened").isZero();
  }

  @Test
  void invalidMergerValueFallsBackWhenAllowed() throws Throwable {
    harness.conf.set(MergerOptions.READ_BUFFER_TOTAL.key(), "-1m");

    assertFallsBackToHadoopsMerger();
  }

  @Test
  void invalidFallbackValueFailsNamingKeyAndValue() {
    harness.conf.set(MergerOptions.FALLBACK.key(), "maybe");

    assertThatStartFails()
        .isInstanceOf(SpongeMergerException.class)
        .hasMessageEndingWith(
            "Invalid value maybe for configuration sponge.merger.fallback: must be true or false")
        .hasCauseInstanceOf(ConfigException.class);
  }

  @Test
  void invalidHadoopShuffleValueFailsNamingHadoopsKey() {
    harness.conf.set(MRJobConfig.SHUFFLE_MERGE_PERCENT, "1.5");

    assertThatStartFails()
        .hasMessageContaining(
            "Invalid value 1.5 for configuration mapreduce.reduce.shuffle.merge.percent");
  }

  @Test
  void readBufferTotalMustHoldTwoSegments() {
    harness.conf.set(MergerOptions.READ_BUFFER_TOTAL.key(), "200k");

    assertThatStartFails()
        .hasMessageContaining(
            "Invalid value 200k for configuration sponge.merger.read.buffer.total")
        .hasMessageContaining("at least two segments (384k");
  }

  @Test
  void encryptedIntermediateDataWithoutAKeyIsRefusedNotWrittenInTheClear() {
    harness.conf.setBoolean(MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA, true);
    // A user of its own: LocalJobRunner jobs leave their spill key in this process's user.
    UserGroupInformation keyless = UserGroupInformation.createRemoteUser("keyless");

    assertThatThrownBy(
            () ->
                keyless.doAs(
                    (PrivilegedExceptionAction<Object>)
                        () -> new SpongeShuffle<Text, IntWritable>().createMergeManager(context())))
        .isInstanceOf(SpongeMergerException.class)
        .hasMessageContaining("mapreduce.job.encrypted-intermediate-data=true")
        .hasMessageContaining("no intermediate-data key");
  }

  @Test
  void aMergeManagerThatCannotBeBuiltFailsTheTaskAndClosesTheSession() {
    harness.conf.set(MRJobConfig.COMBINE_CLASS_ATTR, String.class.getName());

    assertThatStartFails()
        .isInstanceOf(SpongeMergerException.class)
        .hasMessageContaining(ShuffleHarness.REDUCE.toString())
        .hasMessageContaining("class java.lang.String not org.apache.hadoop.mapreduce.Reducer")
        .hasMessageContaining("sponge.merger.fallback=true");
    assertThat(openSessionsOfTheHarness()).isEmpty();
  }

  @Test
  void aMergeManagerThatCannotBeBuiltFallsBackWhenAllowed() throws Throwable {
    harness.conf.set(MRJobConfig.COMBINE_CLASS_ATTR, String.class.getName());

    assertFallsBackToHadoopsMerger();
    assertThat(openSessionsOfTheHarness()).isEmpty();
  }

  /**
   * With {@code sponge.merger.fallback=true}, a shuffle initialized as a reduce task does (Hadoop's
   * {@code Shuffle.init} builds the merge manager) runs Hadoop's merger and counts the fallback.
   */
  private void assertFallsBackToHadoopsMerger() throws Throwable {
    MergerOptions.FALLBACK.set(harness.conf, true);
    SpongeShuffle<Text, IntWritable> shuffle = new SpongeShuffle<>();

    shuffle.init(context());

    MergeManager<?, ?> manager = mergeManagerOf(shuffle);
    try {
      assertThat(manager).isInstanceOf(MergeManagerImpl.class);
      assertThat(harness.sponge(MergerCounter.FALLBACK_TO_HADOOP_MERGER.name())).isEqualTo(1);
    } finally {
      manager.close();
    }
  }

  /** The merge manager Hadoop's Shuffle keeps in a private field. */
  private static MergeManager<?, ?> mergeManagerOf(Shuffle<?, ?> shuffle)
      throws ReflectiveOperationException {
    Field merger = Shuffle.class.getDeclaredField("merger");
    merger.setAccessible(true);
    return (MergeManager<?, ?>) merger.get(shuffle);
  }

  private static List<String> openSessionsOfTheHarness() {
    return OpenSessions.shared().open().stream()
        .map(Object::toString)
        .filter(session -> session.contains(ShuffleHarness.REDUCE.toString()))
        .collect(Collectors.toList());
  }

  @Test
  void fallbackRunsHadoopsMergerAndCountsIt() throws Exception {
    try (LocalJobs jobs = new LocalJobs()) {
      Path input = jobs.newInput();
      Map<String, Integer> expected = TestJobs.writeWords(input, 4, 3_000, 20_000);
      String missing = pool.resolve("no-such-dir").toString();

      LocalJobs.Run failed =
          jobs.sponge(TestJobs::wordCount, input, c -> SpongeOptions.POOL_DIR.set(c, missing));
      LocalJobs.Run fellBack =
          jobs.sponge(
              TestJobs::wordCount,
              input,
              c -> {
                SpongeOptions.POOL_DIR.set(c, missing);
                MergerOptions.FALLBACK.set(c, true);
              });

      assertThat(failed.succeeded).isFalse();
      assertThat(fellBack.succeeded).isTrue();
      assertThat(fellBack.lines()).hasSize(expected.size());
      assertThat(fellBack.output).asString().isEqualTo(TestJobs.render(expected));
      assertThat(fellBack.sponge(MergerCounter.FALLBACK_TO_HADOOP_MERGER)).isEqualTo(1);
      assertThat(fellBack.sponge("POOL_BYTES_WRITTEN")).isZero();
      assertThat(fellBack.reduceSpillFiles).isNotEmpty();
    }
  }

  /** What creating the merge manager throws. */
  private AbstractThrowableAssert<?, ? extends Throwable> assertThatStartFails() {
    return assertThatThrownBy(
        () -> new SpongeShuffle<Text, IntWritable>().createMergeManager(context()));
  }

  private org.apache.hadoop.mapred.ShuffleConsumerPlugin.Context<Text, IntWritable> context()
      throws java.io.IOException {
    return harness.context(null);
  }
}
