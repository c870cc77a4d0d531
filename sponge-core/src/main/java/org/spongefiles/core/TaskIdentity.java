package org.spongefiles.core;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.LeaseDirectory;
import org.spongefiles.core.pool.ProcessLiveness;

/**
 * Who owns a task's SpongeFiles: the task attempt, the process running it (named by its lease in
 * the node's lease directory, beside {@code sponge.pool.dir}) and the node it runs on. Several
 * tasks may share one process (Hadoop's LocalJobRunner runs them as threads), so chunks are owned
 * by the pair (lease, task).
 */
public final class TaskIdentity {
  private static final Logger LOG = LoggerFactory.getLogger(TaskIdentity.class);

  private final String taskId;
  private final String node;
  private final int pid;
  private final long lease;

  /**
   * @param lease the process's lease id on {@code node}, or 0 when it has none (then it may use
   *     neither the pool nor remote memory, which must be able to tell when it dies)
   * @param pid the process's pid as it sees itself, for diagnostics
   */
  public TaskIdentity(String taskId, String node, long lease, int pid) {
    Objects.requireNonNull(taskId, "taskId cannot be null");
    if (taskId.isBlank()) {
      throw new IllegalArgumentException("taskId cannot be blank");
    }
    this.taskId = taskId;
    this.node = Objects.requireNonNull(node, "node cannot be null");
    this.lease = lease;
    this.pid = pid;
  }

  /**
   * Task {@code taskId} in this process, on the node named by the parsed {@code sponge.node.id},
   * under this process's lease in the lease directory beside {@code sponge.pool.dir} (taken on
   * first use). When no lease can be taken there the identity has none, and says why in a warning.
   */
  public static TaskIdentity current(ConfigValues conf, String taskId) {
    LeaseDirectory leases = LeaseDirectory.beside(SpongeSettings.poolSpec(conf).dir());
    long lease;
    try {
      lease = leases.processLease().id();
    } catch (IOException e) {
      LOG.warn(
          "No lease for task {} in {} (beside sponge.pool.dir): it will use neither the pool nor"
              + " remote memory: {}",
          taskId,
          leases,
          e.getMessage());
      lease = 0;
    }
    return new TaskIdentity(taskId, nodeName(conf), lease, ProcessLiveness.currentPid());
  }

  /** The parsed {@code sponge.node.id}, or this host's name. */
  public static String nodeName(ConfigValues conf) {
    String configured = conf.get(SpongeOptions.NODE_ID);
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

  /** The process's pid as it sees itself; diagnostic only. */
  public int pid() {
    return pid;
  }

  /** The process's lease id on its node, 0 when it has none. */
  public long lease() {
    return lease;
  }

  public boolean hasLease() {
    return lease != 0;
  }

  /** This identity as the owner of chunks in its own node's pool. */
  public ChunkOwner localOwner() {
    return new ChunkOwner(lease, pid, 0, ChunkOwner.taskHash(taskId));
  }

  @Override
  public String toString() {
    return taskId + " (lease " + Long.toHexString(lease) + ", pid " + pid + " on " + node + ")";
  }
}
