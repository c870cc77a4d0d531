package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * CHALLENGE body: {@code bytes nonce, u8 secretRequired, i32 chunkSize, string node}. Sent by the
 * server as soon as a connection opens.
 */
public final class Challenge {
  public final byte[] nonce;
  public final boolean secretRequired;
  public final int chunkSize;
  public final String node;

  public Challenge(byte[] nonce, boolean secretRequired, int chunkSize, String node) {
    this.nonce = nonce;
    this.secretRequired = secretRequired;
    this.chunkSize = chunkSize;
    this.node = node;
  }

  public ByteBuffer encode() {
    ByteBuffer out = ByteBuffer.allocate(2 + nonce.length + 1 + 4 + Codec.stringSize(node));
    Codec.putBytes(out, nonce);
    out.put((byte) (secretRequired ? 1 : 0));
    out.putInt(chunkSize);
    Codec.putString(out, node);
    return out.flip();
  }

  public static Challenge decode(ByteBuffer in, String peer) throws WireException {
    byte[] nonce = Codec.getBytes(in, peer, "nonce");
    boolean required = Codec.getByte(in, peer, "secretRequired") != 0;
    int chunkSize = Codec.getInt(in, peer, "chunkSize");
    String node = Codec.getString(in, peer, "node");
    Codec.requireEnd(in, peer, "CHALLENGE");
    if (chunkSize <= 0) {
      throw new WireException(ErrorCode.MALFORMED_FRAME, peer, "chunk size " + chunkSize);
    }
    return new Challenge(nonce, required, chunkSize, node);
  }
}
