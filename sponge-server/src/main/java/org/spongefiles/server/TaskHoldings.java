package org.spongefiles.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.spongefiles.core.pool.OwnerEntry;

/**
 * Who holds the node's pool, counted from the pool's owner entries at one moment: chunks of tasks
 * on this node (which map the pool directly or come through the server) and of tasks on other nodes
 * (lent through the server), and the tasks holding the most.
 */
final class TaskHoldings {
  /** How many of the largest holders the metrics name. */
  static final int TOP = 10;

  final int localChunks;
  final int remoteChunks;
  final Map<Long, Integer> chunksByTask;

  private TaskHoldings(int localChunks, int remoteChunks, Map<Long, Integer> chunksByTask) {
    this.localChunks = localChunks;
    this.remoteChunks = remoteChunks;
    this.chunksByTask = chunksByTask;
  }

  static TaskHoldings of(List<OwnerEntry> owners) {
    int local = 0;
    int remote = 0;
    Map<Long, Integer> byTask = new HashMap<>();
    for (OwnerEntry entry : owners) {
      if (entry.owner().isLocal()) {
        local++;
      } else {
        remote++;
      }
      byTask.merge(entry.owner().task(), 1, Integer::sum);
    }
    return new TaskHoldings(local, remote, byTask);
  }

  /** The task hashes holding the most chunks, most first, at most {@link #TOP}. */
  List<Map.Entry<Long, Integer>> top() {
    List<Map.Entry<Long, Integer>> entries = new ArrayList<>(chunksByTask.entrySet());
    entries.sort(
        Map.Entry.<Long, Integer>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    return entries.subList(0, Math.min(TOP, entries.size()));
  }
}
