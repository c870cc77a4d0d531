package org.spongefiles.core.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigException;

/**
 * The cluster secret that clients and servers prove to each other with HMAC-SHA256 over fresh
 * nonces, so a connection without it can neither read, write nor free anything.
 */
public final class ClusterSecret {
  private static final int MIN_BYTES = 16;

  private final byte[] key;

  private ClusterSecret(byte[] key) {
    this.key = key;
  }

  /**
   * The secret from {@code sponge.auth.secret.file} (preferred) or {@code sponge.auth.secret}, or
   * null when neither is set.
   *
   * @throws ConfigException when the secret is set but unusable
   */
  public static ClusterSecret fromConfiguration(Configuration conf) {
    String file = SpongeOptions.AUTH_SECRET_FILE.get(conf);
    if (!file.isEmpty()) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(Path.of(file));
      } catch (IOException e) {
        throw new ConfigException(
            SpongeOptions.AUTH_SECRET_FILE.key(), file, "cannot be read (" + e.getMessage() + ")");
      }
      String text = new String(bytes, StandardCharsets.UTF_8).trim();
      if (text.length() < MIN_BYTES) {
        throw new ConfigException(
            SpongeOptions.AUTH_SECRET_FILE.key(),
            file,
            "holds " + text.length() + " characters; a secret needs at least " + MIN_BYTES);
      }
      return new ClusterSecret(text.getBytes(StandardCharsets.UTF_8));
    }
    String inline = SpongeOptions.AUTH_SECRET.get(conf);
    if (inline.isEmpty()) {
      return null;
    }
    if (inline.length() < MIN_BYTES) {
      throw new ConfigException(
          SpongeOptions.AUTH_SECRET.key(),
          "(hidden)",
          "has " + inline.length() + " characters; a secret needs at least " + MIN_BYTES);
    }
    return new ClusterSecret(inline.getBytes(StandardCharsets.UTF_8));
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
