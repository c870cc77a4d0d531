package org.spongefiles.server.tracking;

import java.io.Closeable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.LatchParticipants;

/**
 * Who leads the trackers' election, kept current by a watch on the latch in ZooKeeper: a new leader
 * is known to every server within a ZooKeeper notification, with no polling. One watch can serve
 * any number of {@link LeaderLink}s (one per server; many in the scale benchmark).
 */
public final class LeaderWatch implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderWatch.class);

  private final CuratorFramework zookeeper;
  private final String latchPath;
  private final CuratorCache cache;
  private final ExecutorService reader;
  private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
  private volatile String leader = "";

  /** Starts watching the latch at {@code latchPath} (ZooKeeperLayout#leaderLatch). */
  public LeaderWatch(CuratorFramework zookeeper, String latchPath) {
    this.zookeeper = zookeeper;
    this.latchPath = latchPath;
    this.reader =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "sponge-leader-watch");
              thread.setDaemon(true);
              return thread;
            });
    this.cache = CuratorCache.build(zookeeper, latchPath);
    cache.listenable().addListener((type, before, after) -> reread());
    cache.start();
    reread();
  }

  /**
   * Calls {@code listener} with the leader's endpoint now and on every change ("" for none), in the
   * order of the changes: under the same lock as a change, so that the value handed over here can
   * never arrive after a newer one (a server starting while the election settled kept "" and never
   * reported).
   */
  public synchronized void listen(Consumer<String> listener) {
    listeners.add(listener);
    listener.accept(leader);
  }

  public void unlisten(Consumer<String> listener) {
    listeners.remove(listener);
  }

  /** The leader's endpoint (host:port), or empty when no tracker leads. */
  public String leader() {
    return leader;
  }

  /** Reads the participants off Curator's event thread, which must not block. */
  private void reread() {
    try {
      reader.execute(this::read);
    } catch (RejectedExecutionException closed) {
      // closing
    }
  }

  private void read() {
    String now;
    try {
      List<LatchParticipants.Participant> participants =
          LatchParticipants.read(zookeeper, latchPath);
      now = participants.isEmpty() ? "" : participants.get(0).id;
    } catch (Exception e) {
      LOG.debug("Cannot read the tracker election at {}: {}", latchPath, e.toString());
      return;
    }
    synchronized (this) {
      if (!now.equals(leader)) {
        leader = now;
        LOG.info("Tracker leader is now {}", now.isEmpty() ? "(none)" : now);
        for (Consumer<String> listener : listeners) {
          listener.accept(now);
        }
      }
    }
  }

  @Override
  public void close() {
    cache.close();
    reader.shutdownNow();
  }
}
