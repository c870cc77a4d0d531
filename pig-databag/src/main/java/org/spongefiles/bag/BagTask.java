package org.spongefiles.bag;

import java.io.Closeable;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.stats.SpongeStats;

/**
 * The SpongeFiles of the bags of one task attempt (or of the threads that run no task). The
 * SpongeTask is opened at the first spill, so tasks that never spill never touch the pool; {@link
 * #close()} deletes every SpongeFile its bags still hold.
 */
public final class BagTask implements Closeable {
  private final String taskId;
  private final Supplier<Configuration> conf;
  private final Thread owner;
  private final int mergeFanIn;
  private final BagMemory memory;
  private final SelfSpill selfSpill;
  private final BagCounters counters = new BagCounters();
  private WeakReference<SpongeBag> latestGroupBag = new WeakReference<>(null);
  private SpongeTask sponge;
  private IOException openFailure;
  private boolean closed;

  /**
   * Bags of {@code taskId}, configured by {@code conf}; {@code owner} is the thread running the
   * task, or null when no thread owns it.
   *
   * @throws org.spongefiles.core.config.ConfigException naming the key when a {@code sponge.*}
   *     value is invalid, so a bad recipe fails the task at its first bag, not at its first spill
   */
  BagTask(String taskId, Configuration conf, Thread owner) {
    this(taskId, Objects.requireNonNull(conf, "conf cannot be null"), () -> conf, owner);
  }

  /**
   * Bags of {@code taskId} whose options are read from {@code conf}, which is not kept: {@code
   * spongeConf} gives the configuration their SpongeFiles are opened with, at the first spill. A
   * task that owns no configuration (the process-wide one) so holds no copy of one while its bags
   * never spill, which at a small heap is worth a few hundred KB.
   */
  BagTask(String taskId, Configuration conf, Supplier<Configuration> spongeConf, Thread owner) {
    this.taskId = Objects.requireNonNull(taskId, "taskId cannot be null");
    Objects.requireNonNull(conf, "conf cannot be null");
    this.conf = Objects.requireNonNull(spongeConf, "spongeConf cannot be null");
    this.owner = owner;
    ConfigCheck.validate(conf, new SpongeOptions(), new PigBagOptions());
    this.mergeFanIn = PigBagOptions.MERGE_FANIN.get(conf);
    this.memory =
        new BagMemory(
            (long) (PigBagOptions.BAG_MEMORY.get(conf) * Runtime.getRuntime().maxMemory()),
            PigBagOptions.READ_BUFFER.get(conf).intValue());
    this.selfSpill = PigBagOptions.SELF_SPILL.get(conf);
  }

  public String taskId() {
    return taskId;
  }

  Thread owner() {
    return owner;
  }

  int mergeFanIn() {
    return mergeFanIn;
  }

  /**
   * {@code sponge.pig.bag.memory} of the heap: the memory Pig's internal bags share ({@code
   * pig.cachedbag.memusage}), with what the bags' readers and writers hold of it. Each bag spills
   * itself past its part of what is left for tuples (see {@link SpongeBag#selfSpillLimit()}).
   */
  BagMemory memory() {
    return memory;
  }

  /** Which of the task's bags spill themselves ({@code sponge.pig.bag.self.spill}). */
  SelfSpill selfSpill() {
    return selfSpill;
  }

  /**
   * The task's SpongeFiles, opened on first use.
   *
   * @throws IOException when they cannot be opened (the same failure on every later call) or the
   *     task has ended
   */
  synchronized SpongeTask sponge() throws IOException {
    if (closed) {
      throw new IOException("The bags of task " + taskId + " are closed: the task has ended");
    }
    if (openFailure != null) {
      throw openFailure;
    }
    if (sponge == null) {
      try {
        sponge = SpongeTask.open(conf.get(), taskId);
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
    return sponge == null ? null : sponge.stats();
  }

  /** The task's SpongeFiles not deleted yet (0 before the first spill and after close). */
  public synchronized int liveFiles() {
    return sponge == null || closed ? 0 : sponge.files().size();
  }

  /** How many times {@code counter} was counted. */
  public long count(BagCounter counter) {
    return counters.get(counter);
  }

  /**
   * {@code bag} was found to be a GROUP's or COGROUP's bag ({@link SelfSpill#GROUP}). When the one
   * found before it is still unread, both belong to one COGROUP, whose bags share the memory (see
   * {@link SpongeBag#markCogroupBag()}); one bag at a time is a GROUP's, read before the next
   * group's bag fills.
   */
  synchronized void groupBagFound(SpongeBag bag) {
    SpongeBag previous = latestGroupBag.get();
    if (previous != null && previous != bag && previous.unreadGroupBag()) {
      previous.markCogroupBag();
      bag.markCogroupBag();
    }
    latestGroupBag = new WeakReference<>(bag);
  }

  void count(BagCounter counter, long amount) {
    counters.add(counter, amount);
  }

  /** Publishes the counters that grew through Pig's status reporter. */
  void publishCounters() {
    counters.publish(stats());
  }

  public synchronized boolean isClosed() {
    return closed;
  }

  /** Deletes every SpongeFile the task's bags still hold. Idempotent. */
  @Override
  public void close() throws IOException {
    SpongeTask open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = sponge;
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
