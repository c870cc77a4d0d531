package org.spongefiles.core.pool;

/**
 * A snapshot of one allocated chunk's owner entry, as read without the lock. Freeing by snapshot
 * frees the chunk only if its entry is still exactly this one (same owner, same generation).
 */
public final class OwnerEntry {
  private final int chunk;
  private final ChunkOwner owner;
  private final long generation;

  public OwnerEntry(int chunk, ChunkOwner owner, long generation) {
    this.chunk = chunk;
    this.owner = owner;
    this.generation = generation;
  }

  public int chunk() {
    return chunk;
  }

  public ChunkOwner owner() {
    return owner;
  }

  public long generation() {
    return generation;
  }

  @Override
  public String toString() {
    return "chunk " + chunk + " (generation " + generation + ") of " + owner;
  }
}
