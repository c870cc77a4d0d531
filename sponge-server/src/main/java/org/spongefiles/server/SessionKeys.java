package org.spongefiles.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.WireException;

/**
 * Issues and checks session tickets. A ticket is {@code session id (8 random bytes) || HMAC-SHA256
 * (server key, session id, pid, lease, node)[0..16)}: only the server can make one, it names one
 * session, and it is valid only for the process it was issued to. The server records a chunk's
 * owner with the session id, so a peer that copies a task's identity (and holds the cluster secret)
 * still has no session that owns the task's chunks. The key lives in a 0600 file beside the pool
 * ({@code <pool metadata>.token-key}) so tickets outlive a server restart, as the pool does.
 */
final class SessionKeys {
  static final int TICKET_BYTES = 24;
  private static final int KEY_BYTES = 32;
  private static final int MAC_BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;

  private SessionKeys(byte[] key) {
    this.key = new SecretKeySpec(key, "HmacSHA256");
  }

  /** The key file of the pool whose metadata file is {@code poolMetadata}. */
  static Path keyFile(Path poolMetadata) {
    return poolMetadata.resolveSibling(poolMetadata.getFileName() + ".token-key");
  }

  /** Reads the key beside the pool, creating it (owner-only) on first use. */
  static SessionKeys forPool(Path poolMetadata) throws IOException {
    Path file = keyFile(poolMetadata);
    if (!Files.exists(file)) {
      byte[] fresh = new byte[KEY_BYTES];
      RANDOM.nextBytes(fresh);
      Path temp = Files.createTempFile(file.getParent(), ".token-key", ".tmp");
      try {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------"));
        Files.write(temp, fresh);
        Files.createLink(file, temp);
      } catch (FileAlreadyExistsException e) {
        // Another server of this pool made it first: use theirs.
      } finally {
        Files.deleteIfExists(temp);
      }
    }
    byte[] key = Files.readAllBytes(file);
    if (key.length != KEY_BYTES) {
      throw new IOException(
          "Session key file " + file + " holds " + key.length + " bytes, not " + KEY_BYTES);
    }
    return new SessionKeys(key);
  }

  /** A ticket for a new session of the HELLO's process. */
  byte[] issue(Hello hello, String node) {
    long session;
    do {
      session = RANDOM.nextLong();
    } while (session == 0);
    ByteBuffer ticket = ByteBuffer.allocate(TICKET_BYTES);
    ticket.putLong(session);
    ticket.put(mac(session, hello, node));
    return ticket.array();
  }

  /**
   * The session a presented ticket names.
   *
   * @throws WireException AUTH_FAILED when this server did not issue the ticket to this process
   */
  long session(byte[] ticket, Hello hello, String node, String peer) throws WireException {
    if (ticket.length != TICKET_BYTES) {
      throw new WireException(
          ErrorCode.AUTH_FAILED, peer, "a session ticket of " + ticket.length + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(ticket);
    long session = in.getLong();
    byte[] presented = new byte[MAC_BYTES];
    in.get(presented);
    if (!MessageDigest.isEqual(presented, mac(session, hello, node))) {
      throw new WireException(
          ErrorCode.AUTH_FAILED, peer, "the session ticket was not issued to this process");
    }
    return session;
  }

  private byte[] mac(long session, Hello hello, String node) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update(
          ByteBuffer.allocate(20).putLong(session).putInt(hello.pid).putLong(hello.lease).array());
      mac.update(node.getBytes(StandardCharsets.UTF_8));
      byte[] full = mac.doFinal();
      byte[] cut = new byte[MAC_BYTES];
      System.arraycopy(full, 0, cut, 0, MAC_BYTES);
      return cut;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }
}
