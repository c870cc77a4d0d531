package org.spongefiles.core.tier;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;

/** A chunk appended to its SpongeFile's backing file on a local disk. */
final class DiskStoredChunk implements StoredChunk {
  private final DiskBackingFile file;
  private final long offset;
  private final int length;

  DiskStoredChunk(DiskBackingFile file, long offset, int length) {
    this.file = file;
    this.offset = offset;
    this.length = length;
  }

  DiskBackingFile file() {
    return file;
  }

  long offset() {
    return offset;
  }

  @Override
  public TierKind tier() {
    return TierKind.DISK;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public void read(long chunkOffset, ByteBuffer dst) throws IOException {
    try {
      file.read(offset + chunkOffset, dst);
    } catch (InterruptedIOException e) {
      throw e;
    } catch (EOFException e) {
      throw new EOFException(describe() + " is truncated: " + e.getMessage());
    } catch (IOException e) {
      throw new IOException("Cannot read " + describe() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return "disk chunk at byte " + offset + " of " + file.path();
  }
}
