package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * A chunk as the protocol names it: {@code i32 index, i64 generation}, the index of a chunk in a
 * server's pool and the generation it had when allocated. A client only holds a handle and sends it
 * back; the server alone maps it to its pool, where a newer generation means the chunk was
 * reclaimed and lent again.
 */
public final class ChunkHandle {
  static final int BYTES = 12;

  public final int index;
  public final long generation;

  public ChunkHandle(int index, long generation) {
    this.index = index;
    this.generation = generation;
  }

  void put(ByteBuffer out) {
    out.putInt(index).putLong(generation);
  }

  static ChunkHandle get(ByteBuffer in, String peer) throws WireException {
    int index = Codec.getInt(in, peer, "index");
    return new ChunkHandle(index, Codec.getLong(in, peer, "generation"));
  }

  /** Handles are equal when they name the same chunk in the same generation. */
  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ChunkHandle)) {
      return false;
    }
    ChunkHandle that = (ChunkHandle) other;
    return index == that.index && generation == that.generation;
  }

  @Override
  public int hashCode() {
    return 31 * index + Long.hashCode(generation);
  }

  @Override
  public String toString() {
    return "chunk " + index + " (generation " + generation + ")";
  }
}
