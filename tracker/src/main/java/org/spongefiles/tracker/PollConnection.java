package org.spongefiles.tracker;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.spongefiles.core.remote.ClientHandshake;
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
  private final String server;
  private final ClientHandshake handshake;
  private ChannelHandlerContext ctx;
  private boolean ready;
  private long nextRequestId = 1;
  private long pendingId;
  private CompletableFuture<ServerStats> pending;

  PollConnection(String server, ClientIdentity identity, ClusterSecret secret) {
    this.server = server;
    this.handshake = new ClientHandshake(identity, secret, "the tracker", server);
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
        Hello hello = handshake.answer(Challenge.decode(body, server), new byte[0]);
        ctx.writeAndFlush(
            Responses.frame(
                ctx.alloc(), Opcode.HELLO, 0, 0, Unpooled.wrappedBuffer(hello.encode())));
        break;
      case HELLO_OK:
        handshake.check(HelloOk.decode(body, server));
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
