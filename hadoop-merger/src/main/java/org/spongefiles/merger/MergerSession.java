package org.spongefiles.merger;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.security.UserGroupInformation;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ParsedConfig;

/**
 * One reduce attempt's use of SpongeFiles: its {@link SpongeTask}, its counters and its merge
 * manager. Opening checks everything a spill will need (every sponge.* key, Hadoop's shuffle memory
 * keys, the pool, the spill key of encrypted intermediate data), so an unusable setup fails at the
 * start of the task and not at its first spill. Closing publishes the counters and deletes whatever
 * SpongeFiles are left; a session Hadoop does not close (its reducer failed) is closed by {@link
 * OpenSessions} once its attempt is over.
 */
final class MergerSession implements Closeable {
  private final ShuffleConsumerPlugin.Context<?, ?> context;
  private final SpongeTask task;
  private final ShuffleMemory memory;
  private final ReadBudget budget;
  private final CounterPublisher counters;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile SpongeMergeManager<?, ?> manager;

  private MergerSession(
      ShuffleConsumerPlugin.Context<?, ?> context,
      SpongeTask task,
      ShuffleMemory memory,
      ReadBudget budget) {
    this.context = context;
    this.task = task;
    this.memory = memory;
    this.budget = budget;
    this.counters = new CounterPublisher(context.getReporter(), task.stats());
  }

  /**
   * Opens SpongeFiles for the reduce attempt of {@code context}, run by the calling thread, with
   * {@code values}: sponge-core's and the merger's keys, parsed once by {@link #parse}.
   *
   * @throws IOException or {@link org.spongefiles.core.config.ConfigException} naming the key whose
   *     value makes SpongeFiles unusable
   */
  static MergerSession open(ShuffleConsumerPlugin.Context<?, ?> context, ParsedConfig values)
      throws IOException {
    JobConf conf = context.getJobConf();
    ShuffleMemory memory = ShuffleMemory.from(conf);
    checkSpillKey(conf);
    SpongeTask task = SpongeTask.open(values, conf, context.getReduceId().toString());
    try {
      ReadBudget budget = ReadBudget.from(values, conf, task, context.getCodec() != null);
      MergerSession session = new MergerSession(context, task, memory, budget);
      OpenSessions.shared().add(session, Thread.currentThread());
      return session;
    } catch (RuntimeException e) {
      task.close();
      throw e;
    }
  }

  /**
   * Parses and checks every key the merger reads, sponge-core's and {@link MergerOptions}, once,
   * before anything is opened.
   *
   * @throws org.spongefiles.core.config.ConfigException naming the key and value of the first
   *     unusable setting
   */
  static ParsedConfig parse(JobConf conf) {
    return SpongeTask.parse(conf, new MergerOptions());
  }

  /** Never write intermediate data in the clear when the job asked for it encrypted. */
  private static void checkSpillKey(JobConf conf) throws IOException {
    if (!CryptoUtils.isEncryptedSpillEnabled(conf)) {
      return;
    }
    byte[] key =
        TokenCache.getEncryptedSpillKey(UserGroupInformation.getCurrentUser().getCredentials());
    if (key == null || key.length <= 1) {
      throw new IOException(
          MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA
              + "=true but the task's credentials hold no intermediate-data key, so its spills"
              + " cannot be encrypted");
    }
  }

  /**
   * The merge manager of this attempt, its in-memory merges reporting failures to {@code shuffle}.
   */
  @SuppressWarnings("unchecked")
  <K, V> MergeManager<K, V> manager(ExceptionReporter shuffle) {
    if (manager != null) {
      throw new IllegalStateException("the merge manager of " + task.identity() + " exists");
    }
    JobConf conf = context.getJobConf();
    TaskAttemptID reduceId = context.getReduceId();
    Spills<K, V> spills =
        new Spills<>(
            task,
            conf,
            context.getCodec(),
            budget.window(),
            context.getSpilledRecordsCounter(),
            context.getMergedMapOutputsCounter());
    SegmentMerger<K, V> merger =
        new SegmentMerger<>(
            spills,
            context.getLocalFS(),
            new Path(reduceId.toString()),
            (RawComparator<K>) conf.getOutputKeyComparator(),
            context.getReporter());
    Combiner<K, V> combiner = Combiners.forJob(context);
    FinalMerge<K, V> finalMerge =
        new FinalMerge<>(
            spills, merger, memory.maxInMemReduce, budget, counters, context.getMergePhase());
    SpongeMergeManager<K, V> created =
        new SpongeMergeManager<>(
            reduceId,
            conf,
            context.getCodec(),
            memory,
            spills,
            listener ->
                new InMemoryMerger<>(
                    reduceId.toString(), spills, merger, combiner, listener, shuffle),
            finalMerge,
            counters);
    manager = created;
    return created;
  }

  SpongeTask task() {
    return task;
  }

  ReadBudget budget() {
    return budget;
  }

  /** Adds what grew since the last call to the task's SpongeFiles counters. */
  void publishCounters() {
    counters.publish();
  }

  /**
   * Stops the in-memory merges, publishes the counters and deletes every SpongeFile left, once,
   * whichever thread calls it first.
   */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    OpenSessions.shared().remove(this);
    try {
      if (manager != null) {
        manager.release();
      }
    } finally {
      counters.publish();
      task.close();
    }
  }

  @Override
  public String toString() {
    return "SpongeFiles merger session of " + context.getReduceId();
  }
}
