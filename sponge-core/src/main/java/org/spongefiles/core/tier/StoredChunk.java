package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where one chunk's bytes are stored, and how to read them back. */
public interface StoredChunk {

  TierKind tier();

  /** Bytes of data in this chunk. */
  int length();

  /**
   * Copies bytes {@code [offset, offset + dst.remaining())} of this chunk into {@code dst},
   * advancing its position to its limit.
   *
   * @throws IOException naming the tier, location and cause when the bytes cannot be read
   */
  void read(long offset, ByteBuffer dst) throws IOException;

  /** Where the chunk is, for messages: "pool chunk 17 (generation 3) of /dev/shm/...". */
  String describe();
}
