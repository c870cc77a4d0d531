package org.spongefiles.server;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The task ids behind the task hashes of the pool's owner entries, as far as this server knows
 * them: a client names its task when it connects, and the name is kept while the task holds chunks
 * allocated through this server. Tasks that map the node's pool directly never talk to the server;
 * they appear as {@code task-<hash>}.
 */
final class TaskNames {
  private final Map<Long, String> names = new ConcurrentHashMap<>();

  void record(long taskHash, String taskId) {
    if (!taskId.isEmpty()) {
      names.put(taskHash, taskId);
    }
  }

  String name(long taskHash) {
    String name = names.get(taskHash);
    return name != null ? name : String.format("task-%016x", taskHash);
  }

  /** Forgets the tasks that hold nothing any more. */
  void retainOnly(Set<Long> holding) {
    names.keySet().retainAll(holding);
  }
}
