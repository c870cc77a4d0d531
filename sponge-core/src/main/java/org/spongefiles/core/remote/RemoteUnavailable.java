package org.spongefiles.core.remote;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says, once per task, that the task cannot reach remote memory: one WARN line naming what is
 * missing and where the task's chunks go instead, and one count of the reason for the task's
 * counters ({@code REMOTE_UNAVAILABLE} and {@code REMOTE_UNAVAILABLE_<REASON>} in the SpongeFiles
 * group). Later reports of the same task are logged at debug level only. Thread-safe.
 */
public final class RemoteUnavailable {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteUnavailable.class);

  /** Why a task has no remote memory. */
  public enum Reason {
    /** Neither {@code sponge.tracker.addresses} nor {@code sponge.remote.servers} is set. */
    NO_SERVERS_CONFIGURED,
    /** The tracker or servers require the cluster secret and the task has none. */
    NO_SECRET,
    /** The tracker or servers refused the task's secret (or the task refused theirs). */
    AUTH_FAILED,
    /** No rack known: Hadoop's /default-rack, where the tracker knows no server. */
    NO_RACK,
    /** The tracker knows no sponge server in the task's rack. */
    NO_SERVER_IN_RACK,
    /** No tracker answered and ZooKeeper (the fallback) is not configured or not reachable. */
    NO_TRACKER_ANSWER,
    /** No tracker answered and the ZooKeeper classes are not on the task's classpath. */
    NO_ZOOKEEPER_CLASSES
  }

  private final String task;
  private final String instead;
  private final Consumer<Reason> counter;
  private final AtomicBoolean reported = new AtomicBoolean();

  /**
   * @param task the task, for the message
   * @param instead where chunks go without remote memory ("the node's pool, then local disk")
   * @param counter counts the reason in the task's statistics (called once)
   */
  public RemoteUnavailable(String task, String instead, Consumer<Reason> counter) {
    this.task = Objects.requireNonNull(task, "task cannot be null");
    this.instead = Objects.requireNonNull(instead, "instead cannot be null");
    this.counter = Objects.requireNonNull(counter, "counter cannot be null");
  }

  /** Reports nothing anywhere: for tiers used outside a task. */
  public static RemoteUnavailable silent() {
    return new RemoteUnavailable("a remote tier", "the next tier", reason -> {});
  }

  /**
   * Reports that remote memory is unavailable for {@code reason}, {@code what} naming the missing
   * piece with its key and value. Returns whether this was the task's first report.
   */
  public boolean report(Reason reason, String what) {
    if (!reported.compareAndSet(false, true)) {
      LOG.debug("Remote memory still unavailable to {} ({}): {}", task, reason, what);
      return false;
    }
    counter.accept(reason);
    LOG.warn(
        "No remote memory for {} ({}): {}; its chunks go to {} instead (counter SpongeFiles"
            + " REMOTE_UNAVAILABLE_{})",
        task,
        reason,
        what,
        instead,
        reason);
    return true;
  }

  /** Whether remote memory was reported unavailable. */
  public boolean reported() {
    return reported.get();
  }
}
