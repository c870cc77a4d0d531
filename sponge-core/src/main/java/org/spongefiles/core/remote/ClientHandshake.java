package org.spongefiles.core.remote;

import java.security.SecureRandom;
import org.spongefiles.core.wire.Challenge;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.HelloOk;
import org.spongefiles.core.wire.WireException;

/**
 * The client's half of the handshake with one server, the same for a task's connection and the
 * tracker's: {@link #answer} turns the server's CHALLENGE into the HELLO (identity, fresh nonce
 * and, with a cluster secret, the client's proof); {@link #check} verifies the server's proof in
 * its HELLO_OK. Either side lacking the secret the other has is refused with AUTH_FAILED.
 */
public final class ClientHandshake {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final ClientIdentity identity;
  private final ClusterSecret secret;
  private final String client;
  private final String server;
  private byte[] serverNonce;
  private byte[] clientNonce;

  /**
   * @param secret the cluster secret, or null when none is configured
   * @param client who is connecting, for messages ("this task", "the tracker")
   * @param server the server, for messages
   */
  public ClientHandshake(
      ClientIdentity identity, ClusterSecret secret, String client, String server) {
    this.identity = identity;
    this.secret = secret;
    this.client = client;
    this.server = server;
  }

  /** The HELLO answering {@code challenge}, presenting {@code ticket} (empty: a new session). */
  public Hello answer(Challenge challenge, byte[] ticket) throws WireException {
    if (challenge.secretRequired && secret == null) {
      throw new WireException(
          ErrorCode.AUTH_FAILED,
          server,
          "the server requires the cluster secret; configure sponge.auth.secret.file");
    }
    if (!challenge.secretRequired && secret != null) {
      throw new WireException(
          ErrorCode.AUTH_FAILED,
          server,
          client
              + " has a cluster secret but the server does not ask for one; refusing to talk to"
              + " a server outside the secured cluster");
    }
    serverNonce = challenge.nonce;
    clientNonce = new byte[32];
    RANDOM.nextBytes(clientNonce);
    return identity.hello(secret, serverNonce, clientNonce, ticket);
  }

  /** Checks the server's proof of the secret in its HELLO_OK (after {@link #answer}). */
  public HelloOk check(HelloOk welcome) throws WireException {
    if (clientNonce == null) {
      throw new WireException(ErrorCode.OUT_OF_ORDER, server, "HELLO_OK before CHALLENGE");
    }
    if (secret != null && !secret.verify(welcome.proof, "server", serverNonce, clientNonce)) {
      throw new WireException(
          ErrorCode.AUTH_FAILED, server, "the server's proof of the cluster secret is wrong");
    }
    return welcome;
  }
}
