package org.spongefiles.server;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.OwnerEntry;

/**
 * Chunks each session (the owner's task field of chunks allocated through the server) and each node
 * (the owner's host) holds in this node's pool, for the quotas. Kept up to date on every allocation
 * and free through the server, and rebuilt from the pool's owner entries (the truth, which also
 * counts chunks tasks allocated directly) at every reclaim sweep.
 */
final class QuotaLedger {
  private final Map<Long, Integer> chunksBySession = new HashMap<>();
  private final Map<Integer, Integer> chunksByHost = new HashMap<>();

  synchronized int chunks(ChunkOwner owner) {
    return chunksBySession.getOrDefault(owner.task(), 0);
  }

  synchronized int hostChunks(ChunkOwner owner) {
    return chunksByHost.getOrDefault(owner.host(), 0);
  }

  synchronized void add(ChunkOwner owner, int chunks) {
    chunksBySession.merge(owner.task(), chunks, Integer::sum);
    chunksByHost.merge(owner.host(), chunks, Integer::sum);
  }

  synchronized void subtract(ChunkOwner owner, int chunks) {
    chunksBySession.computeIfPresent(
        owner.task(), (task, held) -> held > chunks ? held - chunks : null);
    chunksByHost.computeIfPresent(
        owner.host(), (host, held) -> held > chunks ? held - chunks : null);
  }

  synchronized void rebuild(List<OwnerEntry> owners) {
    chunksBySession.clear();
    chunksByHost.clear();
    for (OwnerEntry entry : owners) {
      chunksBySession.merge(entry.owner().task(), 1, Integer::sum);
      chunksByHost.merge(entry.owner().host(), 1, Integer::sum);
    }
  }
}
