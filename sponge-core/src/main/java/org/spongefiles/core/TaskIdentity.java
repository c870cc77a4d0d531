package org.spongefiles.core;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;

/**
 * Who owns a task's SpongeFiles: the task attempt, the process running it and the node it runs on.
 * Several tasks may share one process (Hadoop's LocalJobRunner runs them as threads), so chunks are
 * owned by the pair (process, task).
 */
public final class TaskIdentity {
  private final String taskId;
  private final String node;
  private final int pid;
  private final long startMillis;

  public TaskIdentity(String taskId, String node, int pid, long startMillis) {
    Objects.requireNonNull(taskId, "taskId cannot be null");
    if (taskId.isBlank()) {
      throw new IllegalArgumentException("taskId cannot be blank");
    }
    this.taskId = taskId;
    this.node = Objects.requireNonNull(node, "node cannot be null");
    this.pid = pid;
    this.startMillis = startMillis;
  }

  /** Task {@code taskId} in this process, on the node named by {@code sponge.node.id}. */
  public static TaskIdentity current(Configuration conf, String taskId) {
    return new TaskIdentity(
        taskId, nodeName(conf), ProcessLiveness.currentPid(), ProcessLiveness.currentStartMillis());
  }

  /** {@code sponge.node.id}, or this host's name. */
  public static String nodeName(Configuration conf) {
    String configured = SpongeOptions.NODE_ID.get(conf);
    if (!configured.isEmpty()) {
      return configured;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  public String taskId() {
    return taskId;
  }

  public String node() {
    return node;
  }

  public int pid() {
    return pid;
  }

  public long startMillis() {
    return startMillis;
  }

  /** This identity as the owner of chunks in its own node's pool. */
  public ChunkOwner localOwner() {
    return new ChunkOwner(pid, startMillis, 0, ChunkOwner.taskHash(taskId));
  }

  @Override
  public String toString() {
    return taskId + " (pid " + pid + " on " + node + ")";
  }
}
