package org.spongefiles.core.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * HELLO body: who the client is and its proof of the cluster secret.
 *
 * <pre>
 * string livenessEndpoint  host:port of the sponge server of the client's node ("" if none)
 * i32    pid               client process as it sees itself (diagnostic only; 1 in a container)
 * i64    lease             id of the client process's lease on its node (0: none, holds no chunk)
 * i64    taskHash          hash of the task attempt id
 * string taskId            task attempt id, for logs
 * bytes  ticket            the session ticket this server issued to the task before, or empty for
 *                          a new session (see {@link HelloOk})
 * bytes  clientNonce       fresh random bytes
 * bytes  proof             HMAC-SHA256 over both nonces and the fields above; empty without a secret
 * </pre>
 */
public final class Hello {
  public final String livenessEndpoint;
  public final int pid;
  public final long lease;
  public final long taskHash;
  public final String taskId;
  public final byte[] ticket;
  public final byte[] clientNonce;
  public final byte[] proof;

  public Hello(
      String livenessEndpoint,
      int pid,
      long lease,
      long taskHash,
      String taskId,
      byte[] ticket,
      byte[] clientNonce,
      byte[] proof) {
    this.livenessEndpoint = livenessEndpoint;
    this.pid = pid;
    this.lease = lease;
    this.taskHash = taskHash;
    this.taskId = taskId;
    this.ticket = ticket;
    this.clientNonce = clientNonce;
    this.proof = proof;
  }

  /** The bytes the proof covers, besides the two nonces. */
  public byte[] identityBytes() {
    return (livenessEndpoint
            + "|"
            + pid
            + "|"
            + lease
            + "|"
            + taskHash
            + "|"
            + taskId
            + "|"
            + Base64.getEncoder().encodeToString(ticket))
        .getBytes(StandardCharsets.UTF_8);
  }

  public Hello withProof(byte[] newProof) {
    return new Hello(livenessEndpoint, pid, lease, taskHash, taskId, ticket, clientNonce, newProof);
  }

  public ByteBuffer encode() {
    ByteBuffer out =
        ByteBuffer.allocate(
            Codec.stringSize(livenessEndpoint)
                + 4
                + 8
                + 8
                + Codec.stringSize(taskId)
                + 2
                + ticket.length
                + 2
                + clientNonce.length
                + 2
                + proof.length);
    Codec.putString(out, livenessEndpoint);
    out.putInt(pid);
    out.putLong(lease);
    out.putLong(taskHash);
    Codec.putString(out, taskId);
    Codec.putBytes(out, ticket);
    Codec.putBytes(out, clientNonce);
    Codec.putBytes(out, proof);
    return out.flip();
  }

  public static Hello decode(ByteBuffer in, String peer) throws WireException {
    String endpoint = Codec.getString(in, peer, "livenessEndpoint");
    int pid = Codec.getInt(in, peer, "pid");
    long lease = Codec.getLong(in, peer, "lease");
    long task = Codec.getLong(in, peer, "taskHash");
    String taskId = Codec.getString(in, peer, "taskId");
    byte[] ticket = Codec.getBytes(in, peer, "ticket");
    byte[] nonce = Codec.getBytes(in, peer, "clientNonce");
    byte[] proof = Codec.getBytes(in, peer, "proof");
    Codec.requireEnd(in, peer, "HELLO");
    if (pid <= 0) {
      throw new WireException(ErrorCode.MALFORMED_FRAME, peer, "pid " + pid + " in HELLO");
    }
    return new Hello(endpoint, pid, lease, task, taskId, ticket, nonce, proof);
  }
}
