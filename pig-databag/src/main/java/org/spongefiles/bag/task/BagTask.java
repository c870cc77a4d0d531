package org.spongefiles.bag.task;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.stats.SpongeStats;

/**
 * The SpongeFiles of the bags of one task attempt (or of the threads that run no task). The
 * SpongeTask is opened at the first spill, so tasks that never spill never touch the pool; {@link
 * #close()} deletes every SpongeFile its bags still hold. It also keeps the task's memory ledger
 * ({@link BagMemory}), its counters and its settings, and holds the per-task state of the bags
 * without knowing what it is ({@link #attachment}).
 *
 * <p>Pig keeps the bags of a finished task reachable for a while (its statics hold the task's
 * context until the next task sets up), and a bag holds its task: so a closed task lets go of its
 * configuration (a whole job's), its SpongeFiles and its attachments, and keeps only its settings,
 * counters and final statistics.
 */
public final class BagTask implements Closeable {
  private final String taskId;
  private Supplier<Configuration> conf;
  private final Thread owner;
  private final BagSettings settings;
  private final BagMemory memory;
  private final BagCounters counters = new BagCounters();
  private final Map<Class<?>, Object> attachments = new HashMap<>();
  private SpongeTask sponge;
  private SpongeStats closedStats;
  private IOException openFailure;
  private boolean closed;

  /**
   * Bags of {@code taskId} with {@code settings}, their SpongeFiles opened with {@code conf} at the
   * first spill; {@code owner} is the thread running the task, or null when no thread owns it.
   */
  public BagTask(String taskId, BagSettings settings, Configuration conf, Thread owner) {
    this(taskId, settings, supply(Objects.requireNonNull(conf, "conf cannot be null")), owner);
  }

  /**
   * Bags of {@code taskId} with {@code settings}: their SpongeFiles are opened at the first spill
   * with the sponge-core values of {@code settings}, parsed once, and the configuration {@code
   * spongeConf} gives for Hadoop's keys (local directories, the DFS tier's file system). A task
   * that owns no configuration (the process-wide one) so holds no copy of one while its bags never
   * spill, which at a small heap is worth a few hundred KB.
   */
  public BagTask(
      String taskId, BagSettings settings, Supplier<Configuration> spongeConf, Thread owner) {
    this.taskId = Objects.requireNonNull(taskId, "taskId cannot be null");
    this.settings = Objects.requireNonNull(settings, "settings cannot be null");
    this.conf = Objects.requireNonNull(spongeConf, "spongeConf cannot be null");
    this.owner = owner;
    this.memory =
        new BagMemory(
            (long) (settings.memoryFraction() * Runtime.getRuntime().maxMemory()),
            settings.readBuffer());
  }

  private static Supplier<Configuration> supply(Configuration conf) {
    return () -> conf;
  }

  public String taskId() {
    return taskId;
  }

  /** The thread running the task, or null. */
  public Thread owner() {
    return owner;
  }

  /** The bags' settings of this task. */
  public BagSettings settings() {
    return settings;
  }

  /**
   * {@code sponge.pig.bag.memory} of the heap: the memory Pig's internal bags share ({@code
   * pig.cachedbag.memusage}), with what the bags' readers and writers hold of it. Each bag spills
   * itself past its part of what is left for tuples.
   */
  public BagMemory memory() {
    return memory;
  }

  /**
   * The task's one object of {@code type}, made by {@code make} on first use: state the bags share
   * per task (which bag was last found to be a GROUP's), kept as long as the task.
   */
  public synchronized <T> T attachment(Class<T> type, Supplier<? extends T> make) {
    Object attached = attachments.get(type);
    if (attached == null) {
      attached = Objects.requireNonNull(make.get(), "make cannot return null");
      attachments.put(type, attached);
    }
    return type.cast(attached);
  }

  /**
   * The task's SpongeFiles, opened on first use.
   *
   * @throws IOException when they cannot be opened (the same failure on every later call) or the
   *     task has ended
   */
  public synchronized SpongeTask sponge() throws IOException {
    if (closed) {
      throw new IOException("The bags of task " + taskId + " are closed: the task has ended");
    }
    if (openFailure != null) {
      throw openFailure;
    }
    if (sponge == null) {
      try {
        sponge = SpongeTask.open(settings.spongeValues(), conf.get(), taskId);
      } catch (IOException | RuntimeException e) {
        openFailure =
            new IOException("Cannot open SpongeFiles for the bags of task " + taskId + ": " + e, e);
        throw openFailure;
      }
    }
    return sponge;
  }

  /** Statistics of the task's SpongeFiles; null before the first spill. */
  public synchronized SpongeStats stats() {
    return sponge == null ? closedStats : sponge.stats();
  }

  /** The task's SpongeFiles not deleted yet (0 before the first spill and after close). */
  public synchronized int liveFiles() {
    return sponge == null || closed ? 0 : sponge.files().size();
  }

  /** How many times {@code counter} was counted. */
  public long count(BagCounter counter) {
    return counters.get(counter);
  }

  /** Counts {@code amount} more of {@code counter}. */
  public void count(BagCounter counter, long amount) {
    counters.add(counter, amount);
  }

  /** Publishes the counters that grew through Pig's status reporter. */
  public void publishCounters() {
    counters.publish(stats());
  }

  public synchronized boolean isClosed() {
    return closed;
  }

  /**
   * Deletes every SpongeFile the task's bags still hold, and lets go of the task's configuration,
   * SpongeFiles and attachments. Idempotent.
   */
  @Override
  public void close() throws IOException {
    SpongeTask open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = sponge;
      closedStats = open == null ? null : open.stats();
      sponge = null;
      conf = null;
      attachments.clear();
    }
    if (open != null) {
      open.close();
    }
  }

  @Override
  public String toString() {
    return "bags of " + taskId;
  }
}
