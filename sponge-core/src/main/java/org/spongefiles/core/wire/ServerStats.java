package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * STATS_REPLY body: {@code i32 chunkSize, i32 chunks, i32 freeChunks, i64 reclaimed, string node,
 * string rack}.
 */
public final class ServerStats {
  public final int chunkSize;
  public final int chunks;
  public final int freeChunks;
  public final long reclaimed;
  public final String node;
  public final String rack;

  public ServerStats(
      int chunkSize, int chunks, int freeChunks, long reclaimed, String node, String rack) {
    this.chunkSize = chunkSize;
    this.chunks = chunks;
    this.freeChunks = freeChunks;
    this.reclaimed = reclaimed;
    this.node = node;
    this.rack = rack;
  }

  public long freeBytes() {
    return (long) freeChunks * chunkSize;
  }

  public ByteBuffer encode() {
    ByteBuffer out = ByteBuffer.allocate(20 + Codec.stringSize(node) + Codec.stringSize(rack));
    out.putInt(chunkSize);
    out.putInt(chunks);
    out.putInt(freeChunks);
    out.putLong(reclaimed);
    Codec.putString(out, node);
    Codec.putString(out, rack);
    return out.flip();
  }

  public static ServerStats decode(ByteBuffer in, String peer) throws WireException {
    int chunkSize = Codec.getInt(in, peer, "chunkSize");
    int chunks = Codec.getInt(in, peer, "chunks");
    int free = Codec.getInt(in, peer, "freeChunks");
    long reclaimed = Codec.getLong(in, peer, "reclaimed");
    String node = Codec.getString(in, peer, "node");
    String rack = Codec.getString(in, peer, "rack");
    Codec.requireEnd(in, peer, "STATS_REPLY");
    return new ServerStats(chunkSize, chunks, free, reclaimed, node, rack);
  }

  @Override
  public String toString() {
    return node
        + " (rack "
        + rack
        + "): "
        + freeChunks
        + " of "
        + chunks
        + " chunks of "
        + chunkSize
        + " bytes free";
  }
}
