package org.spongefiles.core.pool;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Who owns a pool chunk: a task, run by a process that holds a {@link Lease}, on a node. Chunks of
 * an owner whose lease has ended are orphans and may be reclaimed. The pid is kept for people
 * reading status output only (it is the pid the process sees, 1 in a container of its own): no
 * decision depends on it.
 */
public final class ChunkOwner {
  private final long lease;
  private final int pid;
  private final int host;
  private final long task;

  /**
   * @param lease id of the owner process's lease, held on its node ({@link Lease#id()}); not 0
   * @param pid the owner process's pid as it sees itself, for diagnostics only
   * @param host 0 for this node, otherwise the pool's host-table id of the owner's node
   * @param task hash of the task attempt id (see {@link #taskHash(String)}), or a server's session
   */
  public ChunkOwner(long lease, int pid, int host, long task) {
    if (lease == 0) {
      throw new IllegalArgumentException("lease : 0 (expected: a lease id, not 0)");
    }
    if (host < 0) {
      throw new IllegalArgumentException("host : " + host + " (expected: >= 0)");
    }
    this.lease = lease;
    this.pid = pid;
    this.host = host;
    this.task = task;
  }

  /** Task {@code taskId} of this process on this node, under the process's {@code lease}. */
  public static ChunkOwner of(Lease lease, String taskId) {
    return new ChunkOwner(lease.id(), ProcessLiveness.currentPid(), 0, taskHash(taskId));
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

  public long lease() {
    return lease;
  }

  /** The owner's pid as it saw itself; diagnostic only. */
  public int pid() {
    return pid;
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
    return new ChunkOwner(lease, pid, hostId, task);
  }

  /** Equal when lease, host and task are: the pid is not part of who owns a chunk. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ChunkOwner)) {
      return false;
    }
    ChunkOwner other = (ChunkOwner) o;
    return lease == other.lease && host == other.host && task == other.task;
  }

  @Override
  public int hashCode() {
    return Objects.hash(lease, host, task);
  }

  @Override
  public String toString() {
    return "lease "
        + Long.toHexString(lease)
        + " (pid "
        + pid
        + ")"
        + (host == 0 ? "" : " on host #" + host)
        + " task "
        + Long.toHexString(task);
  }
}
