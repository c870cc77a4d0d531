package org.spongefiles.core.wire;

/**
 * A chunk as the protocol names it: the index of a chunk in a server's pool and the generation it
 * had when allocated. Only the server maps it to its pool; a client holds it and sends it back.
 */
public final class ChunkHandle {
  private final int index;
  private final long generation;

  public ChunkHandle(int index, long generation) {
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
    return o instanceof ChunkHandle
        && ((ChunkHandle) o).index == index
        && ((ChunkHandle) o).generation == generation;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(generation * 31 + index);
  }

  @Override
  public String toString() {
    return "chunk " + index + " (generation " + generation + ")";
  }
}
