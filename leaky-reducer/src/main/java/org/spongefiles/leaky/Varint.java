package org.spongefiles.leaky;

/**
 * The length prefix of every buffered value: an unsigned LEB128 varint, one byte for values under
 * 128 bytes (the paper's format used a fixed four-byte int).
 */
final class Varint {
  static final int MAX_BYTES = 5;

  /** {@link #read} found the varint cut off by the end of the bytes it was given. */
  static final long TRUNCATED = -1;

  /** {@link #read} found bytes that no length written by {@link #write} can produce. */
  static final long CORRUPT = -2;

  private Varint() {}

  /** How many bytes {@link #write} takes for {@code value}. */
  static int size(int value) {
    int n = 1;
    while ((value & ~0x7F) != 0) {
      value >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code value} at {@code offset} of {@code dst}; returns the number of bytes written. */
  static int write(int value, byte[] dst, int offset) {
    int n = 0;
    while ((value & ~0x7F) != 0) {
      dst[offset + n++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    dst[offset + n++] = (byte) value;
    return n;
  }

  /**
   * Reads a varint from {@code src} at {@code offset} (at most {@code available} bytes there);
   * returns {@code value << 8 | bytesUsed}, {@link #TRUNCATED} when the varint goes on past {@code
   * available}, or {@link #CORRUPT} when it is longer than {@link #MAX_BYTES} or passes {@code
   * Integer.MAX_VALUE}. Callers report a corrupt one with where they read it.
   */
  static long read(byte[] src, int offset, int available) {
    int value = 0;
    for (int i = 0; i < Math.min(MAX_BYTES, available); i++) {
      int b = src[offset + i] & 0xFF;
      // The fifth byte carries bits 28 to 30 of a non-negative int and ends the varint.
      if (i == MAX_BYTES - 1 && b > 0x07) {
        return CORRUPT;
      }
      value |= (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        return ((long) value << 8) | (i + 1);
      }
    }
    return available >= MAX_BYTES ? CORRUPT : TRUNCATED;
  }
}
