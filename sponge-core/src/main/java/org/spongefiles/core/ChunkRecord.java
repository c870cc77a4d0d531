package org.spongefiles.core;

import org.spongefiles.core.tier.StoredChunk;

/**
 * One entry of a SpongeFile's private chunk list (its "inode"): where the chunk is and the CRC32C
 * of each of its checksum blocks (null when the chunk is not checksummed).
 */
final class ChunkRecord {
  final StoredChunk chunk;
  final int[] crcs;

  ChunkRecord(StoredChunk chunk, int[] crcs) {
    this.chunk = chunk;
    this.crcs = crcs;
  }

  int length() {
    return chunk.length();
  }
}
