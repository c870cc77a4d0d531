package org.spongefiles.bench.transfer;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.ServerStats;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.FrameDecoder;
import org.spongefiles.daemon.netty.Handshake;
import org.spongefiles.daemon.netty.InboundFrame;
import org.spongefiles.daemon.netty.Responses;

/**
 * Many simulated sponge servers in one process for the tracker benchmark: each listens on its own
 * port, speaks the real handshake, and answers STATS with a pool whose free space drifts. No pool,
 * no chunks: what the tracker sees of a server, at almost no cost.
 */
final class StatResponders implements AutoCloseable {
  static final int CHUNKS = 4096;
  static final int CHUNK_SIZE = 1 << 20;

  private final EventLoopGroup group = new NioEventLoopGroup(1);
  private final List<Channel> listeners = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();

  StatResponders(int count) {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    int port = ch.localAddress().getPort();
                    ch.pipeline()
                        .addLast(
                            new FrameDecoder(
                                Frame.MAX_CONTROL_PAYLOAD, String.valueOf(ch.remoteAddress())))
                        .addLast(new Responder(port));
                  }
                });
    for (int i = 0; i < count; i++) {
      Channel listener = bootstrap.bind("127.0.0.1", 0).syncUninterruptibly().channel();
      listeners.add(listener);
      ports.add(((java.net.InetSocketAddress) listener.localAddress()).getPort());
    }
  }

  List<Integer> ports() {
    return ports;
  }

  @Override
  public void close() {
    for (Channel listener : listeners) {
      listener.close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** One connection to one simulated server. */
  private static final class Responder extends SimpleChannelInboundHandler<InboundFrame> {
    private final int port;
    private final Handshake handshake = new Handshake(null);
    private final SplittableRandom random;
    private boolean greeted;
    private int free;

    Responder(int port) {
      this.port = port;
      this.random = new SplittableRandom(port);
      this.free = random.nextInt(CHUNKS);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      handshake.challenge(ctx, CHUNK_SIZE, "127.0.0.1:" + port);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, InboundFrame frame)
        throws WireException {
      if (!greeted) {
        handshake.accept(ctx, frame, "tracker");
        greeted = true;
        return;
      }
      free = Math.max(0, Math.min(CHUNKS, free + random.nextInt(-64, 65)));
      ServerStats stats = new ServerStats(CHUNK_SIZE, CHUNKS, free, 0, "127.0.0.1:" + port, "");
      ctx.writeAndFlush(
          Responses.response(ctx, Opcode.STATS_REPLY, frame.requestId, stats.encode()));
    }
  }
}
