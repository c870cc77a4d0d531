package org.spongefiles.integration.bench.node;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.pool.SharedPool;

/**
 * Creates a node's pool and touches every page of it from the benchmark's own process, outside any
 * {@link MemoryContainer}: cgroup v1 charges a tmpfs page to whoever touches it first, and the pool
 * belongs to the node (its sponge server), not to the task that happens to spill first.
 */
public final class PoolPrefault {
  private static final int PAGE = 4096;

  private PoolPrefault() {}

  /**
   * Opens (creating) the pool {@code conf}'s sponge.pool.* keys describe and writes a zero to every
   * page of it: for a new pool only, whose chunks are zeros anyway.
   */
  public static long prefault(Configuration conf) throws IOException {
    long touched = 0;
    try (SharedPool pool = SharedPool.open(SpongeSettings.poolSpec(conf))) {
      for (int chunk = 0; chunk < pool.chunkCount(); chunk++) {
        ByteBuffer bytes = pool.chunkBuffer(chunk);
        for (int offset = 0; offset < bytes.capacity(); offset += PAGE) {
          // A constant, not the byte read back: the JIT drops a store of the value just loaded
          // from the same place (found: a fifth of a 512m pool was never touched once the loop
          // was compiled, and a task's container was charged for it instead).
          bytes.put(offset, (byte) 0);
          touched += PAGE;
        }
      }
    }
    return touched;
  }
}
