package org.spongefiles.bench.tracker;

/**
 * Each simulated server's recent free counts and when each stopped being true, so that a list's age
 * can be told: a list showing a count the server left at time t is {@code now - t} old.
 */
final class FreeHistory {
  private static final int KEPT = 16;

  private final long[][] ended; // per server, ring of when each recorded count stopped being true
  private final int[][] values; // per server, ring of the counts
  private final int[] next;

  FreeHistory(int servers) {
    ended = new long[servers][KEPT];
    values = new int[servers][KEPT];
    next = new int[servers];
  }

  /** Server {@code server}'s count was {@code before} until now. */
  void changed(int server, int before) {
    synchronized (values[server]) {
      int at = next[server]++ % KEPT;
      values[server][at] = before;
      ended[server][at] = System.nanoTime();
    }
  }

  /**
   * When server {@code server} last stopped having {@code count} free, or the oldest change kept
   * when {@code count} is older than that (a lower bound of its age); 0 when nothing is recorded.
   */
  long endedAt(int server, int count) {
    synchronized (values[server]) {
      int recorded = Math.min(next[server], KEPT);
      long oldest = 0;
      for (int i = 1; i <= recorded; i++) {
        int at = Math.floorMod(next[server] - i, KEPT);
        if (values[server][at] == count) {
          return ended[server][at];
        }
        oldest = ended[server][at];
      }
      return oldest;
    }
  }
}
