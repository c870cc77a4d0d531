package org.spongefiles.core.pool;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Who owns a pool chunk: a process (pid and start time) on a node, running a task. Chunks of an
 * owner whose process is gone are orphans and may be reclaimed.
 */
public final class ChunkOwner {
  private final int pid;
  private final long startMillis;
  private final int host;
  private final long task;

  /**
   * @param pid owner process id in its node's pid namespace
   * @param startMillis owner process start time in epoch millis, 0 when unknown
   * @param host 0 for this node, otherwise the pool's host-table id of the owner's node
   * @param task hash of the task attempt id (see {@link #taskHash(String)})
   */
  public ChunkOwner(int pid, long startMillis, int host, long task) {
    if (pid <= 0) {
      throw new IllegalArgumentException("pid : " + pid + " (expected: > 0)");
    }
    if (host < 0) {
      throw new IllegalArgumentException("host : " + host + " (expected: >= 0)");
    }
    this.pid = pid;
    this.startMillis = startMillis;
    this.host = host;
    this.task = task;
  }

  /** The current process on this node, running {@code taskId}. */
  public static ChunkOwner currentProcess(String taskId) {
    return new ChunkOwner(
        ProcessLiveness.currentPid(), ProcessLiveness.currentStartMillis(), 0, taskHash(taskId));
  }

  /** A stable 64-bit hash of a task attempt id (FNV-1a over its UTF-8 bytes); never 0. */
  public static long taskHash(String taskId) {
    Objects.requireNonNull(taskId, "taskId cannot be null");
    long hash = 0xcbf29ce484222325L;
    for (byte b : taskId.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= 0x100000001b3L;
    }
    return hash == 0 ? 1 : hash;
  }

  public int pid() {
    return pid;
  }

  public long startMillis() {
    return startMillis;
  }

  public int host() {
    return host;
  }

  public long task() {
    return task;
  }

  /** True when this owner is a process of this node. */
  public boolean isLocal() {
    return host == 0;
  }

  /** The same process and task, seen from a pool where its node has host id {@code hostId}. */
  public ChunkOwner onHost(int hostId) {
    return new ChunkOwner(pid, startMillis, hostId, task);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ChunkOwner)) {
      return false;
    }
    ChunkOwner other = (ChunkOwner) o;
    return pid == other.pid
        && startMillis == other.startMillis
        && host == other.host
        && task == other.task;
  }

  @Override
  public int hashCode() {
    return Objects.hash(pid, startMillis, host, task);
  }

  @Override
  public String toString() {
    return "pid "
        + pid
        + (host == 0 ? "" : " on host #" + host)
        + " task "
        + Long.toHexString(task);
  }
}
