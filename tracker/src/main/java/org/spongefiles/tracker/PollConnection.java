package org.spongefiles.tracker;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.wire.Challenge;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.HelloOk;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.ServerStats;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.InboundFrame;
import org.spongefiles.daemon.netty.Responses;

/**
 * The leader's kept-open connection to one sponge server, driven by the event loop: it answers the
 * server's challenge once, then carries one STATS request per poll round. Everything runs on the
 * channel's event loop, so there is no locking and no thread per server.
 */
final class PollConnection extends SimpleChannelInboundHandler<InboundFrame> {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String server;
  private final ClientIdentity identity;
  private final ClusterSecret secret;
  private ChannelHandlerContext ctx;
  private byte[] clientNonce;
  private byte[] serverNonce;
  private boolean ready;
  private long nextRequestId = 1;
  private long pendingId;
  private CompletableFuture<ServerStats> pending;

  PollConnection(String server, ClientIdentity identity, ClusterSecret secret) {
    this.server = server;
    this.identity = identity;
    this.secret = secret;
  }

  /** Asks for the server's statistics; call on the event loop. */
  void poll(CompletableFuture<ServerStats> answer) {
    if (pending != null) {
      pending.completeExceptionally(new IOException("superseded by the next poll round"));
    }
    pending = answer;
    if (ready) {
      send();
    }
  }

  private void send() {
    pendingId = nextRequestId++;
    ctx.writeAndFlush(
        Responses.frame(ctx.alloc(), Opcode.STATS, 0, pendingId, Unpooled.EMPTY_BUFFER));
  }

  @Override
  public void channelActive(ChannelHandlerContext context) {
    this.ctx = context;
    context.fireChannelActive();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext context, InboundFrame frame)
      throws WireException {
    ByteBuffer body = frame.payload.nioBuffer();
    switch (frame.opcode) {
      case CHALLENGE:
        hello(Challenge.decode(body, server));
        break;
      case HELLO_OK:
        byte[] proof = HelloOk.decode(body, server).proof;
        if (secret != null && !secret.verify(proof, "server", serverNonce, clientNonce)) {
          throw new WireException(
              ErrorCode.AUTH_FAILED, server, "the server's proof of the cluster secret is wrong");
        }
        ready = true;
        if (pending != null) {
          send();
        }
        break;
      case STATS_REPLY:
        if (pending != null && frame.requestId == pendingId) {
          pending.complete(ServerStats.decode(body, server));
          pending = null;
        }
        break;
      case ERROR:
        throw ErrorBody.decode(body, server);
      default:
        throw new WireException(ErrorCode.OUT_OF_ORDER, server, "unexpected " + frame.opcode);
    }
  }

  private void hello(Challenge challenge) throws WireException {
    if (challenge.secretRequired != (secret != null)) {
      throw new WireException(
          ErrorCode.AUTH_FAILED,
          server,
          challenge.secretRequired
              ? "the server requires the cluster secret; configure sponge.auth.secret.file"
              : "the tracker has a cluster secret but the server does not ask for one");
    }
    serverNonce = challenge.nonce;
    clientNonce = new byte[32];
    RANDOM.nextBytes(clientNonce);
    Hello hello = identity.hello(secret, serverNonce, clientNonce, new byte[0]);
    ctx.writeAndFlush(
        Responses.frame(ctx.alloc(), Opcode.HELLO, 0, 0, Unpooled.wrappedBuffer(hello.encode())));
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) {
    fail(new IOException("connection to " + server + " closed"));
    context.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    Throwable reason =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    fail(reason);
    context.close();
  }

  private void fail(Throwable reason) {
    if (pending != null) {
      pending.completeExceptionally(reason);
      pending = null;
    }
  }
}
