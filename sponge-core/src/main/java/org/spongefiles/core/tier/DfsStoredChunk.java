package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;

/** A chunk appended to its SpongeFile's file in a Hadoop FileSystem. */
final class DfsStoredChunk implements StoredChunk {
  private final DfsBackingFile file;
  private final long offset;
  private final int length;

  DfsStoredChunk(DfsBackingFile file, long offset, int length) {
    this.file = file;
    this.offset = offset;
    this.length = length;
  }

  @Override
  public TierKind tier() {
    return TierKind.DFS;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public void read(long chunkOffset, ByteBuffer dst) throws IOException {
    try {
      file.readFully(offset + chunkOffset, dst);
    } catch (IOException e) {
      throw new IOException("Cannot read " + describe() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return "DFS chunk at byte " + offset + " of " + file.path();
  }
}
