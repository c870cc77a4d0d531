package org.spongefiles.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.SplittableRandom;

/**
 * Deterministic random content for round-trip tests: a stream of bytes defined by a seed, written
 * in writes of varying sizes, and its SHA-256 digest, so data read back can be checked over every
 * byte without holding it all in memory.
 */
public final class RandomBytes {
  private RandomBytes() {}

  public static byte[] array(long seed, int length) {
    byte[] bytes = new byte[length];
    new SplittableRandom(seed).nextBytes(bytes);
    return bytes;
  }

  /**
   * Writes {@code length} bytes of the stream {@code seed} to {@code out} in writes of 1 byte to
   * 200 KiB, and returns their SHA-256.
   */
  public static byte[] write(OutputStream out, long seed, long length) throws IOException {
    MessageDigest digest = sha256();
    SplittableRandom sizes = new SplittableRandom(seed ^ 0x5DEECE66DL);
    SplittableRandom content = new SplittableRandom(seed);
    byte[] buffer = new byte[200 << 10];
    long left = length;
    while (left > 0) {
      int n = (int) Math.min(left, pickSize(sizes, buffer.length));
      content.nextBytes(buffer);
      if (n == 1) {
        out.write(buffer[0]);
      } else {
        out.write(buffer, 0, n);
      }
      digest.update(buffer, 0, n);
      left -= n;
    }
    return digest.digest();
  }

  /** Reads {@code in} to its end in reads of varying sizes and returns the SHA-256 and count. */
  public static Digest read(InputStream in, long seed) throws IOException {
    MessageDigest digest = sha256();
    SplittableRandom sizes = new SplittableRandom(seed * 31 + 7);
    byte[] buffer = new byte[256 << 10];
    long count = 0;
    while (true) {
      int want = pickSize(sizes, buffer.length);
      if (want == 1) {
        int b = in.read();
        if (b < 0) {
          break;
        }
        digest.update((byte) b);
        count++;
        continue;
      }
      int n = in.read(buffer, 0, want);
      if (n < 0) {
        break;
      }
      digest.update(buffer, 0, n);
      count += n;
    }
    return new Digest(digest.digest(), count);
  }

  /**
   * SHA-256 of the first {@code length} bytes of the stream {@code seed} as {@link #write} makes
   * it.
   */
  public static byte[] expectedDigest(long seed, long length) {
    try {
      return write(OutputStream.nullOutputStream(), seed, length);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static int pickSize(SplittableRandom random, int max) {
    switch (random.nextInt(4)) {
      case 0:
        return 1;
      case 1:
        return 1 + random.nextInt(64);
      case 2:
        return 1 + random.nextInt(8192);
      default:
        return 1 + random.nextInt(max);
    }
  }

  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** A digest and the number of bytes it covers. */
  public static final class Digest {
    public final byte[] sha256;
    public final long bytes;

    Digest(byte[] sha256, long bytes) {
      this.sha256 = sha256;
      this.bytes = bytes;
    }
  }
}
