package org.spongefiles.leaky;

/**
 * The length prefix of every buffered value: an unsigned LEB128 varint, one byte for values under
 * 128 bytes (the paper's format used a fixed four-byte int).
 */
final class Varint {
  static final int MAX_BYTES = 5;

  private Varint() {}

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
   * returns {@code value << 8 | bytesUsed}, or -1 when the varint is longer than {@code available}.
   */
  static long read(byte[] src, int offset, int available) {
    int value = 0;
    for (int i = 0; i < Math.min(MAX_BYTES, available); i++) {
      int b = src[offset + i];
      value |= (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        return ((long) value << 8) | (i + 1);
      }
    }
    if (available >= MAX_BYTES) {
      throw new IllegalStateException("corrupt value length at offset " + offset);
    }
    return -1;
  }
}
