package org.spongefiles.core.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** ALLOCATED and FREE bodies: {@code i32 n, n x (i32 index, i64 generation)}. */
public final class ChunkHandles {
  private ChunkHandles() {}

  public static ByteBuffer encode(List<ChunkHandle> chunks) {
    ByteBuffer out = ByteBuffer.allocate(4 + ChunkHandle.BYTES * chunks.size());
    out.putInt(chunks.size());
    for (ChunkHandle chunk : chunks) {
      chunk.put(out);
    }
    return out.flip();
  }

  public static List<ChunkHandle> decode(ByteBuffer in, String peer) throws WireException {
    int count = Codec.getCount(in, ChunkHandle.BYTES, peer, "chunk");
    List<ChunkHandle> chunks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      chunks.add(ChunkHandle.get(in, peer));
    }
    Codec.requireEnd(in, peer, "chunk list");
    return chunks;
  }
}
