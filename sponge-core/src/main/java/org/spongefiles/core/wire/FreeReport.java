package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * REPORT body, a sponge server's free space as it tells the leading tracker:
 *
 * <pre>
 * string endpoint   the server as registered in ZooKeeper (host:port)
 * i32 chunkSize
 * i32 chunks
 * i32 freeChunks
 * </pre>
 */
public final class FreeReport {
  public final String endpoint;
  public final int chunkSize;
  public final int chunks;
  public final int freeChunks;

  public FreeReport(String endpoint, int chunkSize, int chunks, int freeChunks) {
    this.endpoint = endpoint;
    this.chunkSize = chunkSize;
    this.chunks = chunks;
    this.freeChunks = freeChunks;
  }

  public ByteBuffer encode() {
    ByteBuffer out = ByteBuffer.allocate(size());
    put(out);
    return out.flip();
  }

  /** Bytes of this report's body. */
  int size() {
    return Codec.stringSize(endpoint) + 12;
  }

  /** Writes this report's body at {@code out}'s position. */
  void put(ByteBuffer out) {
    Codec.putString(out, endpoint);
    out.putInt(chunkSize);
    out.putInt(chunks);
    out.putInt(freeChunks);
  }

  /**
   * @throws WireException MALFORMED_FRAME naming the peer and field when the body is truncated, too
   *     long, or counts chunks below zero or more free than there are
   */
  public static FreeReport decode(ByteBuffer in, String peer) throws WireException {
    FreeReport report = read(in, peer);
    Codec.requireEnd(in, peer, "REPORT");
    return report;
  }

  /** One report's body from {@code in}'s position, checked as {@link #decode} checks it. */
  static FreeReport read(ByteBuffer in, String peer) throws WireException {
    String endpoint = Codec.getString(in, peer, "endpoint");
    int chunkSize = Codec.getInt(in, peer, "chunkSize");
    int chunks = Codec.getInt(in, peer, "chunks");
    int free = Codec.getInt(in, peer, "freeChunks");
    if (chunkSize <= 0 || chunks < 0 || free < 0 || free > chunks) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME,
          peer,
          "REPORT of "
              + endpoint
              + " with chunkSize "
              + chunkSize
              + ", chunks "
              + chunks
              + ", freeChunks "
              + free
              + " (expected: chunkSize > 0, 0 <= freeChunks <= chunks)");
    }
    return new FreeReport(endpoint, chunkSize, chunks, free);
  }

  /** This server's line in its rack's list. */
  public FreeList.Entry entry() {
    return new FreeList.Entry(endpoint, freeChunks, chunks, chunkSize);
  }

  @Override
  public String toString() {
    return endpoint + ": " + freeChunks + " of " + chunks + " chunks of " + chunkSize + " free";
  }
}
