package org.spongefiles.server.tracking;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.DecoderException;
import java.nio.ByteBuffer;
import org.spongefiles.core.remote.ClientHandshake;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.Challenge;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.HelloOk;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.FrameDecoder;
import org.spongefiles.daemon.netty.InboundFrame;
import org.spongefiles.daemon.netty.Responses;
import org.spongefiles.daemon.netty.TlsGate;

/**
 * The sponge server's own client connections for tracking, to the leading tracker ({@link
 * LeaderLink}) and to rack peers ({@link PeerRelay}): the same pipeline (TLS when the server uses
 * it, control-sized frames) and the same handshake as the server itself, proving the cluster secret
 * as the server.
 */
final class LinkChannels {
  private final LinkSettings settings;
  private final Bootstrap bootstrap;

  LinkChannels(LinkSettings settings, EventLoop loop) {
    this.settings = settings;
    this.bootstrap =
        new Bootstrap()
            .group(loop)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.max(1, settings.connectTimeoutMillis));
  }

  /** Connects to {@code address}; {@code handler} sees the handshake through and then frames. */
  Channel open(ServerAddress address, Authenticated handler) {
    return bootstrap
        .clone()
        .handler(
            new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel ch) {
                if (settings.tls != null) {
                  ch.pipeline()
                      .addLast(
                          TlsGate.client(
                              settings.tls,
                              address.host(),
                              address.port(),
                              settings.connectTimeoutMillis));
                }
                ch.pipeline()
                    .addLast(new FrameDecoder(Frame.MAX_CONTROL_PAYLOAD, handler.peer))
                    .addLast(handler);
              }
            })
        .connect(address.socketAddress())
        .channel();
  }

  /** One connection's handler: answers the CHALLENGE as the server, checks the HELLO_OK. */
  abstract static class Authenticated extends SimpleChannelInboundHandler<InboundFrame> {
    final String peer;
    private final ClientHandshake handshake;

    Authenticated(LinkSettings settings, String peer, String what) {
      this.peer = peer;
      this.handshake = new ClientHandshake(settings.identity, settings.secret, what, peer);
    }

    @Override
    protected final void channelRead0(ChannelHandlerContext ctx, InboundFrame frame)
        throws WireException {
      ByteBuffer body = frame.payload.nioBuffer();
      switch (frame.opcode) {
        case CHALLENGE:
          Hello hello = handshake.answer(Challenge.decode(body, peer), new byte[0]);
          ctx.writeAndFlush(
              Responses.frame(
                  ctx.alloc(), Opcode.HELLO, 0, 1, Unpooled.wrappedBuffer(hello.encode())));
          break;
        case HELLO_OK:
          handshake.check(HelloOk.decode(body, peer));
          authenticated(ctx);
          break;
        case ERROR:
          throw ErrorBody.decode(body, peer);
        default:
          frame(ctx, frame.opcode, body);
      }
    }

    /** The peer accepted this server. */
    abstract void authenticated(ChannelHandlerContext ctx);

    /** A frame after the handshake. */
    abstract void frame(ChannelHandlerContext ctx, Opcode opcode, ByteBuffer body)
        throws WireException;

    /** The failure under Netty's decoder wrapping. */
    static Throwable reason(Throwable cause) {
      return cause instanceof DecoderException && cause.getCause() != null
          ? cause.getCause()
          : cause;
    }
  }
}
