package org.spongefiles.core.remote;

import java.util.Objects;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.Hello;

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
            startMillis(),
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
        + " (pid "
        + pid
        + ", node server "
        + (livenessEndpoint.isEmpty() ? "none" : livenessEndpoint)
        + ")";
  }
}
