package org.spongefiles.core.io;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C over a chunk in blocks of a fixed size, so a reader can verify a window of a chunk without
 * reading all of it. The last block of a chunk may be short.
 */
public final class Checksums {
  private Checksums() {}

  /** Number of checksum blocks covering {@code length} bytes. */
  public static int blocks(int length, int blockSize) {
    return (length + blockSize - 1) / blockSize;
  }

  /** CRC32C of each block of {@code data}'s bytes between position and limit (unchanged). */
  public static int[] compute(ByteBuffer data, int blockSize) {
    ByteBuffer view = data.duplicate();
    int start = view.position();
    int length = view.remaining();
    int[] crcs = new int[blocks(length, blockSize)];
    CRC32C crc = new CRC32C();
    for (int b = 0; b < crcs.length; b++) {
      int from = start + b * blockSize;
      view.limit(Math.min(from + blockSize, start + length)).position(from);
      crc.reset();
      crc.update(view);
      crcs[b] = (int) crc.getValue();
    }
    return crcs;
  }

  /** CRC32C of {@code length} bytes of {@code data} from absolute index {@code from}. */
  public static int crc(ByteBuffer data, int from, int length) {
    ByteBuffer view = data.duplicate();
    view.limit(from + length).position(from);
    CRC32C crc = new CRC32C();
    crc.update(view);
    return (int) crc.getValue();
  }

  public static int crc(byte[] data, int from, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, from, length);
    return (int) crc.getValue();
  }
}
