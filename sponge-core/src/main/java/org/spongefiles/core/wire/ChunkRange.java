package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * The head of WRITE and READ bodies: {@code i32 index, i64 generation, i32 offset} and, for READ,
 * {@code i32 length}. A WRITE's data follows its head to the end of the payload.
 */
public final class ChunkRange {
  public static final int WRITE_HEAD = 16;
  public static final int READ_BODY = 20;

  public final ChunkHandle chunk;
  public final int offset;
  public final int length;

  public ChunkRange(ChunkHandle chunk, int offset, int length) {
    this.chunk = chunk;
    this.offset = offset;
    this.length = length;
  }

  public void putWriteHead(ByteBuffer out) {
    chunk.put(out);
    out.putInt(offset);
  }

  public ByteBuffer encodeRead() {
    ByteBuffer out = ByteBuffer.allocate(READ_BODY);
    putWriteHead(out);
    out.putInt(length);
    return out.flip();
  }

  /** Decodes a WRITE head; the data length is what is left of the payload. */
  public static ChunkRange decodeWrite(ByteBuffer in, String peer) throws WireException {
    ChunkHandle chunk = ChunkHandle.get(in, peer);
    int offset = Codec.getInt(in, peer, "offset");
    return new ChunkRange(chunk, offset, in.remaining());
  }

  public static ChunkRange decodeRead(ByteBuffer in, String peer) throws WireException {
    ChunkHandle chunk = ChunkHandle.get(in, peer);
    int offset = Codec.getInt(in, peer, "offset");
    int length = Codec.getInt(in, peer, "length");
    Codec.requireEnd(in, peer, "READ");
    return new ChunkRange(chunk, offset, length);
  }

  /** Checks the range lies within a chunk of {@code chunkSize} bytes. */
  public void checkWithin(int chunkSize, String peer) throws WireException {
    if (offset < 0 || length < 0 || (long) offset + length > chunkSize) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME,
          peer,
          "range " + offset + "+" + length + " outside a chunk of " + chunkSize + " bytes");
    }
  }
}
