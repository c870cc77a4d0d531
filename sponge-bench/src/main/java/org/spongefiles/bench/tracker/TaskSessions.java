package org.spongefiles.bench.tracker;

import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;

/**
 * Simulated task sessions, a constant population of them, on one thread: a task opens on a node of
 * its own (ten per node), asks its node's server for its rack's free list, borrows {@value #BORROW}
 * chunks of the first server listed (more than the report threshold, so every open and close is a
 * change the tracker must spread), asks again every {@code sponge.tracker.refresh} (2 s), and after
 * a lifetime of 10 to 110 s gives the chunks back and is replaced by a new task on the same node.
 * Latency is counted from when a question was due, so a lagging driver counts against it; a
 * question the server refuses (no list) is one the task would send to the trackers.
 */
final class TaskSessions implements Runnable {
  static final int BORROW = 48;
  private static final long REFRESH = TimeUnit.SECONDS.toNanos(2);

  private final SimServers servers;
  private final int tasks;
  private final long[] due;
  private final long[] closeAt;
  private final int[] holding;
  private final SplittableRandom random = new SplittableRandom(31);
  private final SplittableRandom order = new SplittableRandom(32);
  private final PriorityQueue<Integer> queue;
  final FreeHistory history;
  final AtomicLong fallbacks = new AtomicLong();
  final AtomicLong questions = new AtomicLong();
  private volatile boolean stopped;
  private volatile long[] latencies = new long[0];
  private volatile int recorded;

  TaskSessions(SimServers servers, int tasks) {
    this.servers = servers;
    this.tasks = tasks;
    this.due = new long[tasks];
    this.closeAt = new long[tasks];
    this.holding = new int[tasks];
    this.history = new FreeHistory(servers.count);
    this.queue = new PriorityQueue<>(tasks, (a, b) -> Long.compare(due[a], due[b]));
    long now = System.nanoTime();
    for (int t = 0; t < tasks; t++) {
      due[t] = now + random.nextLong(REFRESH); // the first opens spread over one refresh
      closeAt[t] = 0;
      holding[t] = -1;
      queue.add(t);
    }
  }

  /** Starts recording latencies, room for {@code capacity} of them. */
  void record(int capacity) {
    recorded = 0;
    latencies = new long[capacity];
  }

  /** The latencies recorded since {@link #record}, in ns. */
  long[] recorded() {
    long[] all = latencies;
    return java.util.Arrays.copyOf(all, Math.min(recorded, all.length));
  }

  void stop() {
    stopped = true;
  }

  @Override
  public void run() {
    while (!stopped) {
      int t = queue.peek();
      long wait = due[t] - System.nanoTime();
      if (wait > 0) {
        sleep(wait);
        continue;
      }
      queue.poll();
      step(t);
      queue.add(t);
    }
  }

  private void step(int t) {
    int node = t % servers.count;
    long now = System.nanoTime();
    if (closeAt[t] != 0 && now >= closeAt[t]) {
      giveBack(t);
      closeAt[t] = 0; // the next task on this node opens now
    }
    FreeList list = ask(node, due[t]);
    if (closeAt[t] == 0) {
      borrow(t, list);
      closeAt[t] = now + TimeUnit.SECONDS.toNanos(10 + random.nextInt(101));
    }
    due[t] = Math.min(now + REFRESH, closeAt[t]);
  }

  private FreeList ask(int node, long dueNanos) {
    questions.incrementAndGet();
    FreeList list = null;
    try {
      list = servers.link(node).answer(servers.racks[node], "task", order);
    } catch (WireException e) {
      fallbacks.incrementAndGet();
    }
    long[] into = latencies;
    int at = recorded;
    if (at < into.length) {
      into[at] = System.nanoTime() - dueNanos;
      recorded = at + 1;
    }
    return list;
  }

  private void borrow(int t, FreeList list) {
    if (list == null) {
      return;
    }
    for (FreeList.Entry entry : list.servers) {
      Integer server = servers.byEndpoint.get(entry.endpoint);
      if (server != null) {
        int now = servers.free[server].addAndGet(-BORROW);
        if (now >= 0) {
          holding[t] = server;
          history.changed(server, now + BORROW);
          return;
        }
        servers.free[server].addAndGet(BORROW); // full since the list was made: the next one
      }
    }
  }

  private void giveBack(int t) {
    int server = holding[t];
    if (server >= 0) {
      history.changed(server, servers.free[server].addAndGet(BORROW) - BORROW);
      holding[t] = -1;
    }
  }

  private static void sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(1)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
