package org.spongefiles.server;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.OwnerEntry;

/**
 * Chunks each task holds in this node's pool, for the per-task quota. Kept up to date on every
 * allocation and free through the server, and rebuilt from the pool's owner entries (the truth,
 * which also counts chunks tasks allocated directly) at every reclaim sweep.
 */
final class QuotaLedger {
  private final Map<Long, Integer> chunksByTask = new HashMap<>();

  synchronized int chunks(ChunkOwner owner) {
    return chunksByTask.getOrDefault(owner.task(), 0);
  }

  synchronized void add(ChunkOwner owner, int chunks) {
    chunksByTask.merge(owner.task(), chunks, Integer::sum);
  }

  synchronized void subtract(ChunkOwner owner, int chunks) {
    chunksByTask.computeIfPresent(
        owner.task(), (task, held) -> held > chunks ? held - chunks : null);
  }

  synchronized void rebuild(List<OwnerEntry> owners) {
    chunksByTask.clear();
    for (OwnerEntry entry : owners) {
      chunksByTask.merge(entry.owner().task(), 1, Integer::sum);
    }
  }
}
