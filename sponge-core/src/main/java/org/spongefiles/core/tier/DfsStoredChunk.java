package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;

/** A chunk appended to its SpongeFile's file in a Hadoop FileSystem. */
final class DfsStoredChunk extends AppendedChunk {
  private final DfsBackingFile file;

  DfsStoredChunk(DfsBackingFile file, long offset, int length) {
    super(TierKind.DFS, "DFS", file.path(), offset, length);
    this.file = file;
  }

  @Override
  public void read(long chunkOffset, ByteBuffer dst) throws IOException {
    try {
      file.readFully(offset() + chunkOffset, dst);
    } catch (IOException e) {
      throw new IOException("Cannot read " + describe() + ": " + e.getMessage(), e);
    }
  }
}
