package org.spongefiles.core.remote;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.spongefiles.core.tier.FileKey;

/**
 * AES-GCM encryption of chunks lent to other nodes, with a fresh key per SpongeFile that never
 * leaves the task, so a server's memory holds ciphertext only. The ciphertext has the length of the
 * plaintext; the 16-byte tag and the nonce stay in the task's chunk record.
 */
final class ChunkCipher {
  static final int TAG_BYTES = 16;
  private static final int NONCE_BYTES = 12;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<FileKey, SecretKey> keys = new ConcurrentHashMap<>();

  /** A sealed chunk: what to send, and what to keep to open it again. */
  static final class Sealed {
    final ByteBuffer ciphertext;
    final byte[] nonce;
    final byte[] tag;

    Sealed(ByteBuffer ciphertext, byte[] nonce, byte[] tag) {
      this.ciphertext = ciphertext;
      this.nonce = nonce;
      this.tag = tag;
    }
  }

  Sealed seal(FileKey file, ByteBuffer plaintext) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key(file), new GCMParameterSpec(TAG_BYTES * 8, nonce));
      ByteBuffer out = ByteBuffer.allocateDirect(plaintext.remaining() + TAG_BYTES);
      cipher.doFinal(plaintext.duplicate(), out);
      out.flip();
      byte[] tag = new byte[TAG_BYTES];
      out.position(out.limit() - TAG_BYTES);
      out.get(tag);
      out.position(0).limit(out.limit() - TAG_BYTES);
      return new Sealed(out, nonce, tag);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is unavailable: " + e, e);
    }
  }

  /**
   * Decrypts and authenticates a whole chunk.
   *
   * @throws GeneralSecurityException when the bytes or tag do not authenticate
   */
  ByteBuffer open(FileKey file, ByteBuffer ciphertext, byte[] nonce, byte[] tag)
      throws GeneralSecurityException {
    SecretKey key = keys.get(file);
    if (key == null) {
      throw new GeneralSecurityException("no key for " + file + " (it was deleted)");
    }
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
    ByteBuffer in = ByteBuffer.allocate(ciphertext.remaining() + TAG_BYTES);
    in.put(ciphertext).put(tag).flip();
    ByteBuffer out = ByteBuffer.allocate(in.remaining());
    cipher.doFinal(in, out);
    return out.flip();
  }

  void forget(FileKey file) {
    keys.remove(file);
  }

  private SecretKey key(FileKey file) {
    return keys.computeIfAbsent(
        file,
        f -> {
          try {
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(256, RANDOM);
            return generator.generateKey();
          } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES key generation is unavailable", e);
          }
        });
  }
}
