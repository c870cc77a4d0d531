package org.spongefiles.core.wire;

import java.nio.ByteBuffer;

/**
 * HELLO_OK body: {@code bytes proof, bytes ticket}. The proof is the server's proof of the cluster
 * secret (empty without one). The ticket is the session the server issued: a sponge server binds
 * every chunk it allocates to the session, and only a connection that presents the ticket in its
 * HELLO acts for that session, so copying a task's identity gets none of its chunks. A task keeps
 * one ticket per server for all its connections to it; a tracker issues none (empty).
 */
public final class HelloOk {
  public final byte[] proof;
  public final byte[] ticket;

  public HelloOk(byte[] proof, byte[] ticket) {
    this.proof = proof;
    this.ticket = ticket;
  }

  public ByteBuffer encode() {
    ByteBuffer out = ByteBuffer.allocate(4 + proof.length + ticket.length);
    Codec.putBytes(out, proof);
    Codec.putBytes(out, ticket);
    return out.flip();
  }

  public static HelloOk decode(ByteBuffer in, String peer) throws WireException {
    byte[] proof = Codec.getBytes(in, peer, "proof");
    byte[] ticket = Codec.getBytes(in, peer, "ticket");
    Codec.requireEnd(in, peer, "HELLO_OK");
    return new HelloOk(proof, ticket);
  }
}
