package org.spongefiles.core.remote;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Closes {@link TimedChannel}s whose request runs past its deadline: one sweep over the open
 * channels every {@link #SWEEP_MILLIS}, rather than a timer per request, so a request costs two
 * volatile writes, no allocation and no wake-up. Its thread runs only while a channel is open: the
 * first channel opened starts it and the last one closed stops it, so a task or daemon that holds
 * no remote connection has no watchdog thread, and closing a {@code SpongeTask} (which closes its
 * connections) leaves none behind.
 */
final class ChannelWatchdog {
  /** How often the watchdog looks for requests past their deadline: a timeout's precision. */
  static final long SWEEP_MILLIS = 10;

  private static final Set<TimedChannel> OPEN = ConcurrentHashMap.newKeySet();
  private static ScheduledExecutorService sweeper; // guarded by ChannelWatchdog.class

  private ChannelWatchdog() {}

  /** Watches {@code channel} until {@link #forget}; starts the sweeper for the first one. */
  static synchronized void watch(TimedChannel channel) {
    OPEN.add(channel);
    if (sweeper == null) {
      sweeper =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread thread = new Thread(r, "sponge-remote-watchdog");
                thread.setDaemon(true);
                return thread;
              });
      sweeper.scheduleWithFixedDelay(
          ChannelWatchdog::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  /** Stops watching {@code channel}; stops the sweeper when it was the last. Idempotent. */
  static synchronized void forget(TimedChannel channel) {
    if (OPEN.remove(channel) && OPEN.isEmpty() && sweeper != null) {
      sweeper.shutdownNow();
      sweeper = null;
    }
  }

  /** Whether the sweeper thread is running (for tests). */
  static synchronized boolean running() {
    return sweeper != null;
  }

  private static void sweep() {
    long now = System.nanoTime();
    for (TimedChannel open : OPEN) {
      if (open.pastDeadline(now)) {
        forget(open);
        open.expire();
      }
    }
  }
}
