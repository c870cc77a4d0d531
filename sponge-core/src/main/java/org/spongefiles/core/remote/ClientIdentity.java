package org.spongefiles.core.remote;

import java.util.Objects;

/**
 * Who a connection acts for: a task in a process on a node, and the sponge server of that node that
 * can vouch for the process's liveness.
 */
public final class ClientIdentity {
  private final String livenessEndpoint;
  private final int pid;
  private final long startMillis;
  private final long taskHash;
  private final String taskId;

  public ClientIdentity(
      String livenessEndpoint, int pid, long startMillis, long taskHash, String taskId) {
    this.livenessEndpoint =
        Objects.requireNonNull(livenessEndpoint, "livenessEndpoint cannot be null");
    this.pid = pid;
    this.startMillis = startMillis;
    this.taskHash = taskHash;
    this.taskId = Objects.requireNonNull(taskId, "taskId cannot be null");
  }

  public String livenessEndpoint() {
    return livenessEndpoint;
  }

  public int pid() {
    return pid;
  }

  public long startMillis() {
    return startMillis;
  }

  public long taskHash() {
    return taskHash;
  }

  public String taskId() {
    return taskId;
  }

  @Override
  public String toString() {
    return taskId
        + " (pid "
        + pid
        + ", node server "
        + (livenessEndpoint.isEmpty() ? "none" : livenessEndpoint)
        + ")";
  }
}
