package org.spongefiles.daemon.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import java.security.SecureRandom;
import org.spongefiles.core.wire.Challenge;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.HelloOk;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;

/**
 * The server side of a connection's opening, shared by the sponge server and the tracker: send a
 * CHALLENGE with a fresh nonce, then accept a HELLO only if it proves the cluster secret (when one
 * is configured), answering with this side's own proof.
 */
public final class Handshake {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final ClusterSecret secret;
  private final byte[] nonce = new byte[32];

  public Handshake(ClusterSecret secret) {
    this.secret = secret;
    RANDOM.nextBytes(nonce);
  }

  /** Sends the CHALLENGE that opens every connection. */
  public void challenge(ChannelHandlerContext ctx, int chunkSize, String node) {
    Challenge challenge = new Challenge(nonce, secret != null, chunkSize, node);
    ctx.writeAndFlush(
        Responses.frame(ctx, Opcode.CHALLENGE, 0, 0, Unpooled.wrappedBuffer(challenge.encode())));
  }

  /**
   * Checks the client's first frame; the caller answers with {@link #welcome}.
   *
   * @return the client's identity
   * @throws WireException NOT_AUTHENTICATED when the frame is not a HELLO, AUTH_FAILED when the
   *     secret is not proven
   */
  public Hello accept(ChannelHandlerContext ctx, InboundFrame frame, String peer)
      throws WireException {
    if (frame.opcode != Opcode.HELLO) {
      throw new WireException(ErrorCode.NOT_AUTHENTICATED, peer, frame.opcode + " before HELLO");
    }
    Hello hello = Hello.decode(frame.payload.nioBuffer(), peer);
    if (secret != null) {
      if (!secret.verify(hello.proof, "client", nonce, hello.clientNonce, hello.identityBytes())) {
        throw new WireException(
            ErrorCode.AUTH_FAILED,
            peer,
            hello.proof.length == 0
                ? "the client did not prove the cluster secret"
                : "the client's proof of the cluster secret is wrong");
      }
    }
    return hello;
  }

  /** Answers an accepted HELLO with HELLO_OK: this side's proof and the session ticket issued. */
  public void welcome(ChannelHandlerContext ctx, long requestId, Hello hello, byte[] ticket) {
    byte[] proof = secret == null ? new byte[0] : secret.proof("server", nonce, hello.clientNonce);
    ByteBuf reply =
        Responses.response(ctx, Opcode.HELLO_OK, requestId, new HelloOk(proof, ticket).encode());
    ctx.writeAndFlush(reply);
  }
}
