package org.spongefiles.leaky;

import java.io.EOFException;
import java.io.IOException;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;

/**
 * Reads one overflow file through a window: a group's values lie at increasing offsets, so most
 * reads are served from the window and the stream underneath reads ahead.
 */
final class OverflowReader {
  private final SpongeFile file;
  private final byte[] window;
  private SpongeInputStream in;
  private long windowStart = -1;
  private int windowLength;

  OverflowReader(SpongeFile file, int windowSize) {
    this.file = file;
    this.window = new byte[windowSize];
  }

  void read(long offset, byte[] dst, int off, int len) throws IOException {
    if (in == null) {
      in = file.input(window.length);
    }
    while (len > 0) {
      if (windowStart < 0 || offset < windowStart || offset >= windowStart + windowLength) {
        fill(offset);
      }
      int at = (int) (offset - windowStart);
      int n = Math.min(len, windowLength - at);
      System.arraycopy(window, at, dst, off, n);
      offset += n;
      off += n;
      len -= n;
    }
  }

  private void fill(long offset) throws IOException {
    long left = in.length() - offset;
    if (left <= 0) {
      throw new EOFException("offset " + offset + " is past the end of overflow file " + file);
    }
    if (in.getPos() != offset) {
      in.seek(offset);
    }
    int n = (int) Math.min(window.length, left);
    int read = in.readNBytes(window, 0, n);
    if (read != n) {
      throw new EOFException("overflow file " + file + " ended at " + (offset + read));
    }
    windowStart = offset;
    windowLength = n;
  }

  void close() {
    if (in != null) {
      in.close();
      in = null;
    }
  }
}
