package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeOptions;

/**
 * A reduce attempt that fails leaves nothing of its SpongeFiles behind. Hadoop closes the shuffle
 * plugin only after the reducer succeeded (ReduceTask.run has no finally), and LocalJobRunner, like
 * Pig's local modes and uber tasks, keeps the JVM alive after the attempt failed: whether the
 * reducer throws or the shuffle fails, every pool chunk must be free again, no disk-tier file may
 * remain and no thread of the attempt may survive. What the attempt held when it failed is recorded
 * from inside the job, so each test also shows there was something to release.
 */
class FailedAttemptTest {
  /** 16 chunks of 64 KiB: the spills of the failing attempts overflow into the disk tier. */
  private static final long SMALL_POOL = 1L << 20;

  private static final Consumer<Configuration> SMALL_POOL_CONF =
      conf -> {
        SpongeOptions.POOL_SIZE.set(conf, SMALL_POOL);
        SpongeOptions.POOL_SEGMENT_SIZE.set(conf, SMALL_POOL);
      };

  /** How long the release of a failed attempt may take (its thread must end first). */
  private static final Duration RELEASED_WITHIN = Duration.ofSeconds(15);

  /** What each failing attempt held at the moment it failed, by attempt id. */
  static final Map<String, SpongeHoldings> AT_FAILURE = new ConcurrentHashMap<>();

  private LocalJobs jobs;

  @BeforeEach
  void setUp() throws IOException {
    jobs = new LocalJobs();
  }

  @AfterEach
  void tearDown() {
    jobs.close();
  }

  @Test
  void aReducerThatThrowsLeavesNoChunkFileOrThread() throws Exception {
    Path input = jobs.newInput();
    TestJobs.writeWords(input, 14, 3_000, 60_000);

    LocalJobs.Run run = jobs.sponge(FailedAttemptTest::failingReducer, input, SMALL_POOL_CONF);

    assertThat(run.succeeded).isFalse();
    assertReleased(run, run.reduceAttempt(0));
  }

  @Test
  void aShuffleThatFailsLeavesNoChunkFileOrThread() throws Exception {
    Path input = jobs.newInput();
    TestJobs.writeWords(input, 14, 3_000, 60_000);

    LocalJobs.Run run =
        jobs.sponge(
            FailedAttemptTest::failingFinalMerge,
            input,
            SMALL_POOL_CONF.andThen(
                // Every map output streams into a SpongeFile; the final merge then fails.
                conf -> conf.set(MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, "0.0001")));

    assertThat(run.succeeded).isFalse();
    assertReleased(run, run.reduceAttempt(0));
  }

  private static void assertReleased(LocalJobs.Run run, String attempt) {
    SpongeHoldings held = AT_FAILURE.remove(attempt);
    assertThat(held).as("what %s held when it failed", attempt).isNotNull();
    assertThat(held.poolChunksInUse).as("pool chunks in use at the failure").isPositive();
    assertThat(held.diskFiles).as("disk-tier files at the failure").isNotEmpty();
    assertThat(held.threads).as("threads of the attempt at the failure").isNotEmpty();
    await()
        .atMost(RELEASED_WITHIN)
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () -> {
              SpongeHoldings now = SpongeHoldings.of(run.conf, attempt);
              assertThat(now.poolChunksInUse).as("pool chunks in use").isZero();
              assertThat(now.diskFiles).as("disk-tier files").isEmpty();
              assertThat(now.threads).as("threads of %s", attempt).isEmpty();
            });
  }

  // ---------------------------------------------------------------- a reducer that throws

  /** Sums like word count, and throws at its 100th key, with the merge's SpongeFiles half read. */
  public static final class ThrowingReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    private int keys;

    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException {
      if (++keys == 100) {
        String attempt = context.getTaskAttemptID().toString();
        AT_FAILURE.put(attempt, SpongeHoldings.of(context.getConfiguration(), attempt));
        throw new IOException("reducer of " + attempt + " fails at key " + key + " (test)");
      }
    }
  }

  static Job failingReducer(Configuration conf, Path input, Path output) throws IOException {
    Job job = TestJobs.wordCount(conf, input, output);
    job.setReducerClass(ThrowingReducer.class);
    return job;
  }

  // ---------------------------------------------------------------- a shuffle that fails

  /**
   * Compares text keys as Hadoop does, except in a reduce task, where its first comparison (in the
   * final merge, as no map output stays in memory) throws.
   */
  public static final class ReduceSideFailingComparator extends Text.Comparator
      implements Configurable {
    private Configuration conf;
    private String reduceAttempt;

    @Override
    public void setConf(Configuration conf) {
      this.conf = conf;
      boolean map = conf.getBoolean(MRJobConfig.TASK_ISMAP, true);
      reduceAttempt = map ? null : conf.get(MRJobConfig.TASK_ATTEMPT_ID);
    }

    @Override
    public Configuration getConf() {
      return conf;
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      if (reduceAttempt != null) {
        AT_FAILURE.putIfAbsent(reduceAttempt, SpongeHoldings.of(conf, reduceAttempt));
        throw new IllegalStateException("key comparison fails in " + reduceAttempt + " (test)");
      }
      return super.compare(b1, s1, l1, b2, s2, l2);
    }
  }

  static Job failingFinalMerge(Configuration conf, Path input, Path output) throws IOException {
    Job job = TestJobs.wordCount(conf, input, output);
    job.setSortComparatorClass(ReduceSideFailingComparator.class);
    return job;
  }
}
