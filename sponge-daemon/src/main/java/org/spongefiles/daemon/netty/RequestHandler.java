package org.spongefiles.daemon.netty;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import org.slf4j.Logger;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.WireException;

/**
 * The part of a daemon's client connection that is the same in the sponge server and the tracker:
 * how a failure is answered. A refusal gets an ERROR and the connection stays; a fault whose code
 * closes the connection gets an ERROR, one warning naming the peer, and the close; a broken
 * connection is closed quietly; an unexpected error is logged with its stack and closes it.
 */
public abstract class RequestHandler extends SimpleChannelInboundHandler<InboundFrame> {
  private final Logger log;

  protected RequestHandler(Logger log) {
    this.log = log;
  }

  /** The client's address, for messages. */
  protected abstract String peer();

  /** Refuses a response frame: clients send requests only. */
  protected final void requireRequest(InboundFrame frame) throws WireException {
    if ((frame.flags & Frame.FLAG_RESPONSE) != 0) {
      throw new WireException(
          ErrorCode.OUT_OF_ORDER, peer(), "a client sent a response frame (" + frame.opcode + ")");
    }
  }

  /** Answers {@code e} with an ERROR, closing the connection after it when its code says so. */
  protected void fail(ChannelHandlerContext ctx, long requestId, WireException e) {
    if (e.code().closesConnection()) {
      log.warn("Closing connection from {}: {}", peer(), e.getMessage());
      ctx.writeAndFlush(Responses.error(ctx, requestId, e.code(), e.reason()))
          .addListener(ChannelFutureListener.CLOSE);
    } else {
      ctx.writeAndFlush(Responses.error(ctx, requestId, e.code(), e.reason()));
    }
  }

  /** Called, before the close, for a failure that is neither a protocol fault nor an I/O error. */
  protected void unexpected(Throwable reason) {}

  @Override
  public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable reason =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    if (reason instanceof WireException) {
      fail(ctx, 0, (WireException) reason);
    } else if (reason instanceof IOException) {
      log.debug("Connection from {} failed: {}", peer(), reason.toString());
      ctx.close();
    } else {
      log.warn("Closing connection from {} after an unexpected error", peer(), reason);
      unexpected(reason);
      ctx.close();
    }
  }
}
