package org.spongefiles.integration.bench.node;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.pool.SharedPool;

/**
 * Creates a node's pool and touches every page of it ({@link SharedPool#touchAll}) from the
 * benchmark's own process, outside any {@link MemoryContainer}, as the node's sponge server does at
 * start ({@code sponge.server.pool.touch}): the benchmarks' task JVMs create the node's pool
 * themselves when no server runs on their node.
 */
public final class PoolPrefault {
  private PoolPrefault() {}

  /** Opens (creating) the pool {@code conf}'s sponge.pool.* keys describe and touches all of it. */
  public static long prefault(Configuration conf) throws IOException {
    try (SharedPool pool = SharedPool.open(SpongeSettings.poolSpec(conf))) {
      return pool.touchAll();
    }
  }
}
