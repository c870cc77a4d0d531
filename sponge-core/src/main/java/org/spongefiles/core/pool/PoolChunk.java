package org.spongefiles.core.pool;

/**
 * A handle on one allocated pool chunk. The generation tells whether the chunk is still the one
 * that was allocated: a chunk reclaimed and given to someone else has a newer generation.
 */
public final class PoolChunk {
  private final int index;
  private final long generation;

  public PoolChunk(int index, long generation) {
    this.index = index;
    this.generation = generation;
  }

  public int index() {
    return index;
  }

  public long generation() {
    return generation;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PoolChunk
        && ((PoolChunk) o).index == index
        && ((PoolChunk) o).generation == generation;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(generation * 31 + index);
  }

  @Override
  public String toString() {
    return "pool chunk " + index + " (generation " + generation + ")";
  }
}
