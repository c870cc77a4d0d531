package org.spongefiles.core.tier;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;

/** A chunk appended to its SpongeFile's backing file on a local disk. */
final class DiskStoredChunk extends AppendedChunk {
  private final DiskBackingFile file;

  DiskStoredChunk(DiskBackingFile file, long offset, int length) {
    super(TierKind.DISK, "disk", file.path(), offset, length);
    this.file = file;
  }

  DiskBackingFile file() {
    return file;
  }

  @Override
  public void read(long chunkOffset, ByteBuffer dst) throws IOException {
    try {
      file.read(offset() + chunkOffset, dst);
    } catch (InterruptedIOException e) {
      throw e;
    } catch (EOFException e) {
      throw new EOFException(describe() + " is truncated: " + e.getMessage());
    } catch (IOException e) {
      throw new IOException("Cannot read " + describe() + ": " + e.getMessage(), e);
    }
  }
}
