package org.spongefiles.core.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cluster secret that clients and servers prove to each other with HMAC-SHA256 over fresh
 * nonces, so a connection without it can neither read, write nor free anything.
 */
public final class ClusterSecret {
  /** The fewest bytes a configured secret may have. */
  public static final int MIN_BYTES = 16;

  private final byte[] key;

  private ClusterSecret(byte[] key) {
    this.key = key;
  }

  /** A secret from raw bytes (tests, tools). */
  public static ClusterSecret of(byte[] key) {
    return new ClusterSecret(key.clone());
  }

  /** HMAC-SHA256 of the role label and parts. */
  public byte[] proof(String role, byte[]... parts) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update(role.getBytes(StandardCharsets.UTF_8));
      for (byte[] part : parts) {
        mac.update(intBytes(part.length));
        mac.update(part);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  /** Constant-time check of a proof. */
  public boolean verify(byte[] proof, String role, byte[]... parts) {
    return MessageDigest.isEqual(proof, proof(role, parts));
  }

  private static byte[] intBytes(int value) {
    return new byte[] {
      (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
    };
  }

  @Override
  public String toString() {
    return "ClusterSecret(hidden)";
  }
}
