package org.spongefiles.merger;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.ShutdownHookManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merger sessions of this JVM that are still open, each tied to the thread running its reduce
 * attempt, and closed at the latest when that attempt is over.
 *
 * <p>Hadoop closes a shuffle plugin only after the reducer succeeded ({@code ReduceTask.run} has no
 * {@code finally}), so a session whose reducer threw would keep its threads, pool chunks and disk
 * files for as long as the JVM lives. A YARN task JVM exits after its attempt, but LocalJobRunner
 * (tests, Pig's local modes, MapReduce's local mode) and uber tasks keep running. An attempt is
 * over when its thread opens the next session (LocalJobRunner reuses pool threads), when its thread
 * ends (checked every {@value #SWEEP_MILLIS} ms by a daemon thread that runs only while sessions
 * are open), or when the JVM shuts down.
 */
final class OpenSessions {
  private static final Logger LOG = LoggerFactory.getLogger(OpenSessions.class);
  static final long SWEEP_MILLIS = 250;

  /** Runs before Hadoop closes its cached FileSystems, which the DFS tier deletes through. */
  private static final int SHUTDOWN_PRIORITY = FileSystem.SHUTDOWN_HOOK_PRIORITY + 1;

  private static final OpenSessions SHARED = new OpenSessions();

  private final Map<Closeable, Thread> owners = new LinkedHashMap<>();
  private Thread sweeper;
  private boolean hooked;

  static OpenSessions shared() {
    return SHARED;
  }

  /**
   * Ties {@code session} to {@code owner}, the thread of its reduce attempt, and closes the
   * sessions {@code owner} opened before: their attempts are over.
   */
  void add(Closeable session, Thread owner) {
    List<Closeable> ended = new ArrayList<>();
    synchronized (this) {
      Iterator<Map.Entry<Closeable, Thread>> open = owners.entrySet().iterator();
      while (open.hasNext()) {
        Map.Entry<Closeable, Thread> entry = open.next();
        if (entry.getValue() == owner) {
          ended.add(entry.getKey());
          open.remove();
        }
      }
      owners.put(session, owner);
      hookShutdown();
      if (sweeper == null) {
        sweeper = new Thread(this::sweepWhileOpen, "sponge-merger-sessions");
        sweeper.setDaemon(true);
        sweeper.start();
      }
    }
    closeAll(ended, "its thread " + owner.getName() + " started another reduce attempt");
  }

  /** Forgets {@code session}, which was closed. */
  synchronized void remove(Closeable session) {
    owners.remove(session);
  }

  /** The sessions still open. */
  synchronized List<Closeable> open() {
    return new ArrayList<>(owners.keySet());
  }

  private void hookShutdown() {
    if (hooked) {
      return;
    }
    try {
      ShutdownHookManager.get()
          .addShutdownHook(() -> closeAll(takeAll(), "the JVM is exiting"), SHUTDOWN_PRIORITY);
      hooked = true;
    } catch (IllegalStateException e) {
      LOG.debug("JVM already shutting down, no hook for merger sessions: {}", e.toString());
    }
  }

  private void sweepWhileOpen() {
    while (true) {
      try {
        Thread.sleep(SWEEP_MILLIS);
      } catch (InterruptedException e) {
        synchronized (this) {
          sweeper = null;
        }
        return;
      }
      List<Closeable> ended = new ArrayList<>();
      boolean last;
      synchronized (this) {
        owners
            .entrySet()
            .removeIf(entry -> !entry.getValue().isAlive() && ended.add(entry.getKey()));
        last = owners.isEmpty();
        if (last) {
          sweeper = null;
        }
      }
      closeAll(ended, "its thread ended");
      if (last) {
        return;
      }
    }
  }

  private synchronized List<Closeable> takeAll() {
    List<Closeable> all = new ArrayList<>(owners.keySet());
    owners.clear();
    return all;
  }

  private static void closeAll(List<Closeable> sessions, String why) {
    for (Closeable session : sessions) {
      LOG.info("Closing {}: {}", session, why);
      try {
        session.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not release {}: {}", session, e.toString());
      }
    }
  }
}
