package org.spongefiles.tracker;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.server.SpongeServer;

/** Changes a server's free count and times how long until a rack list shows it. */
final class ListChanges {
  private ListChanges() {}

  /**
   * Takes two chunks on {@code changed} through {@code borrower}; returns ms until {@code list}
   * (asked every 10 ms, for up to 5 s) shows its new free count.
   */
  static long changeAndWait(
      RemoteConnection borrower, SpongeServer changed, Callable<FreeList> list) throws Exception {
    borrower.allocate(2);
    int expected = changed.pool().freeChunks();
    long start = System.nanoTime();
    Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> freeOf(list.call(), changed.endpoint()) == expected);
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** The free count {@code list} gives {@code endpoint}, or -1 when it does not list it. */
  static int freeOf(FreeList list, String endpoint) {
    return list.servers.stream()
        .filter(e -> e.endpoint.equals(endpoint))
        .mapToInt(e -> e.freeChunks)
        .findFirst()
        .orElse(-1);
  }
}
