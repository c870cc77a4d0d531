package org.spongefiles.core.remote;

import java.util.Objects;
import org.spongefiles.core.io.JvmToken;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.Hello;

/**
 * Who a connection acts for: a task in a process on a node, named by the process's lease there (a
 * lease, see {@code pool.Lease}), and the sponge server of that node that can vouch for the lease.
 * The pid is carried for logs and status output only.
 */
public final class ClientIdentity {
  private final String livenessEndpoint;
  private final int pid;
  private final long lease;
  private final long taskHash;
  private final String taskId;

  private ClientIdentity(
      String livenessEndpoint, long lease, int pid, long taskHash, String taskId) {
    this.livenessEndpoint =
        Objects.requireNonNull(livenessEndpoint, "livenessEndpoint cannot be null");
    this.lease = lease;
    this.pid = pid;
    this.taskHash = taskHash;
    this.taskId = Objects.requireNonNull(taskId, "taskId cannot be null");
  }

  /**
   * A process without a lease file: daemons and tools that hold no chunks (a tracker, a status
   * query). Chunks allocated under it would live as long as this JVM to servers in this JVM, and be
   * orphans to any other; tasks use {@link #leased}. {@code startMillis} is ignored.
   */
  public ClientIdentity(
      String livenessEndpoint, int pid, long startMillis, long taskHash, String taskId) {
    this(livenessEndpoint, JvmToken.jvmLocalLease(), pid, taskHash, taskId);
  }

  /**
   * A task whose process holds lease {@code lease} on its node, whose sponge server is {@code
   * livenessEndpoint} ("" when none).
   */
  public static ClientIdentity leased(
      String livenessEndpoint, long lease, int pid, long taskHash, String taskId) {
    if (lease == 0) {
      throw new IllegalArgumentException("lease : 0 (expected: a lease id)");
    }
    return new ClientIdentity(livenessEndpoint, lease, pid, taskHash, taskId);
  }

  public String livenessEndpoint() {
    return livenessEndpoint;
  }

  public int pid() {
    return pid;
  }

  /** The lease id of the process on its node. */
  public long lease() {
    return lease;
  }

  public long taskHash() {
    return taskHash;
  }

  public String taskId() {
    return taskId;
  }

  /**
   * The HELLO this identity answers a server's challenge with: {@code clientNonce} for the server's
   * proof, the server's session {@code ticket} (empty for a new session) and, with a cluster
   * secret, this client's proof over both nonces and the identity.
   */
  public Hello hello(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce, byte[] ticket) {
    Hello hello =
        new Hello(
            livenessEndpoint(),
            pid(),
            lease(),
            taskHash(),
            taskId(),
            ticket,
            clientNonce,
            new byte[0]);
    if (secret == null) {
      return hello;
    }
    return hello.withProof(secret.proof("client", serverNonce, clientNonce, hello.identityBytes()));
  }

  @Override
  public String toString() {
    return taskId
        + " (lease "
        + Long.toHexString(lease)
        + ", pid "
        + pid
        + ", node server "
        + (livenessEndpoint.isEmpty() ? "none" : livenessEndpoint)
        + ")";
  }
}
