package org.spongefiles.core.pool;

/** A pool's occupancy and lifetime counters at one instant. */
public final class PoolStats {
  private final int chunks;
  private final int freeChunks;
  private final int chunkSize;
  private final long allocations;
  private final long reclaimed;
  private final long lockTakeovers;

  PoolStats(
      int chunks,
      int freeChunks,
      int chunkSize,
      long allocations,
      long reclaimed,
      long lockTakeovers) {
    this.chunks = chunks;
    this.freeChunks = freeChunks;
    this.chunkSize = chunkSize;
    this.allocations = allocations;
    this.reclaimed = reclaimed;
    this.lockTakeovers = lockTakeovers;
  }

  public int chunks() {
    return chunks;
  }

  public int freeChunks() {
    return freeChunks;
  }

  public int chunkSize() {
    return chunkSize;
  }

  public long freeBytes() {
    return (long) freeChunks * chunkSize;
  }

  public long totalBytes() {
    return (long) chunks * chunkSize;
  }

  public long allocations() {
    return allocations;
  }

  public long reclaimed() {
    return reclaimed;
  }

  public long lockTakeovers() {
    return lockTakeovers;
  }

  @Override
  public String toString() {
    return freeChunks
        + " of "
        + chunks
        + " chunks free, "
        + allocations
        + " allocations, "
        + reclaimed
        + " reclaimed, "
        + lockTakeovers
        + " lock takeovers";
  }
}
