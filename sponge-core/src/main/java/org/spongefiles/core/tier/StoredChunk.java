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

  /**
   * A read-only view of the chunk's bytes when they are directly addressable (the pool), else null.
   * After copying from a view, call {@link #checkValid()}: the bytes are only good if the chunk was
   * still ours while they were copied.
   */
  default ByteBuffer view() {
    return null;
  }

  /** Throws when the storage no longer holds this chunk (for instance it was reclaimed). */
  default void checkValid() throws IOException {}

  /** Where the chunk is, for messages: "pool chunk 17 (generation 3) of /dev/shm/...". */
  String describe();
}
