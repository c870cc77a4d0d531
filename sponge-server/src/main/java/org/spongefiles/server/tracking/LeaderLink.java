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
import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.RackOrder;
import org.spongefiles.core.remote.ClientHandshake;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.Challenge;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.HelloOk;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.FrameDecoder;
import org.spongefiles.daemon.netty.InboundFrame;
import org.spongefiles.daemon.netty.Responses;
import org.spongefiles.daemon.netty.TlsGate;

/**
 * A sponge server's connection to the leading tracker. It samples the pool's free count every tenth
 * of a report interval and sends a REPORT when it changed past {@code
 * sponge.tracker.report.threshold} (at most once per report interval) or a keepalive is due; it
 * keeps the rack list the leader pushes (RACK_LIST) and answers the node's tasks from it ({@link
 * #answer}), ordered as the leader would order it. When the election changes ({@link LeaderWatch})
 * it connects to the new leader at once and reports in full.
 *
 * <p>While the link is down (the leader died, a new one is being elected) the last list is still
 * answered, with its age, for three keepalives: tasks keep spilling to what they knew instead of
 * turning to the trackers all at once. Everything but {@link #answer} runs on one event loop.
 */
public final class LeaderLink implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderLink.class);
  private static final int SILENT_KEEPALIVES = 3;

  private final LinkSettings settings;
  private final PoolGauge pool;
  private final LeaderWatch watch;
  private final EventLoop loop;
  private final Bootstrap bootstrap;
  private final RackOrder order;
  private final Consumer<String> onLeader = this::leaderChanged;
  private final long intervalNanos;
  private final long keepaliveNanos;
  private final int step;
  private final ScheduledFuture<?> sampler;
  private final AtomicLong reports = new AtomicLong();

  // On the loop only:
  private String leader = "";
  private Channel channel;
  private boolean ready;
  private boolean closed;
  private FreeReport reported;
  private long reportedNanos;
  private long heardNanos;
  private long retryAtNanos;
  private String warnedAbout = "";

  // Read by the server's handlers:
  private volatile FreeList rackList;
  private volatile long lostAtMillis = System.currentTimeMillis();

  /**
   * Starts following the leader named by {@code watch}, on one loop of {@code group}.
   *
   * @param group the event loops of the server's own client connections (the link uses one)
   */
  public LeaderLink(
      LinkSettings settings,
      PoolGauge pool,
      LeaderWatch watch,
      io.netty.channel.EventLoopGroup group) {
    this.settings = settings;
    this.pool = pool;
    this.watch = watch;
    this.loop = group.next();
    this.order = new RackOrder(settings.nearlyFull);
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(settings.intervalMillis);
    this.keepaliveNanos = TimeUnit.MILLISECONDS.toNanos(settings.keepaliveMillis);
    this.step = Math.max(1, (int) Math.ceil(settings.threshold * pool.chunks()));
    this.bootstrap =
        new Bootstrap()
            .group(loop)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.max(1, settings.connectTimeoutMillis));
    long sample = Math.max(5, Math.min(100, settings.intervalMillis / 4));
    this.sampler = loop.scheduleWithFixedDelay(this::sample, sample, sample, TimeUnit.MILLISECONDS);
    watch.listen(onLeader);
  }

  /**
   * The free list of {@code rack} for a task of this node, most free first (weighted at random).
   *
   * @throws WireException NOT_LEADER naming the leader (or empty) when this server holds no list of
   *     that rack it may answer with: another rack, none received yet, or the link down for over
   *     three keepalives; the task then asks the trackers itself
   */
  public FreeList answer(String rack, String peer, SplittableRandom random) throws WireException {
    FreeList list = rackList;
    long lost = lostAtMillis;
    long age = lost == 0 ? 0 : Math.max(0, System.currentTimeMillis() - lost);
    if (list == null
        || !rack.equals(settings.rack)
        || age > SILENT_KEEPALIVES * settings.keepaliveMillis) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, watch.leader());
    }
    List<FreeList.Entry> ordered;
    synchronized (random) {
      ordered = order.order(list.servers, random);
    }
    return new FreeList(age, rack, ordered);
  }

  /** Whether a rack list from the current leader is held. */
  public boolean isLinked() {
    return lostAtMillis == 0;
  }

  /** Reports sent since start. */
  public long reportsSent() {
    return reports.get();
  }

  private void leaderChanged(String now) {
    loop.execute(
        () -> {
          if (closed || now.equals(leader)) {
            return;
          }
          leader = now;
          drop();
          retryAtNanos = 0;
          sample();
        });
  }

  private void sample() {
    if (closed) {
      return;
    }
    long now = System.nanoTime();
    if (channel == null) {
      if (!leader.isEmpty() && now - retryAtNanos >= 0) {
        retryAtNanos = now + intervalNanos;
        connect();
      }
      return;
    }
    if (!ready) {
      return;
    }
    if (now - heardNanos > SILENT_KEEPALIVES * keepaliveNanos) {
      LOG.warn(
          "Tracker leader {} sent nothing for {} ms; reconnecting",
          leader,
          TimeUnit.NANOSECONDS.toMillis(now - heardNanos));
      drop();
      return;
    }
    int free = pool.freeChunks();
    if (due(free, now)) {
      reported = new FreeReport(settings.endpoint, pool.chunkSize(), pool.chunks(), free);
      reportedNanos = now;
      reports.incrementAndGet();
      channel.writeAndFlush(
          Responses.frame(
              channel.alloc(), Opcode.REPORT, 0, 0, Unpooled.wrappedBuffer(reported.encode())),
          channel.voidPromise());
    }
  }

  private boolean due(int free, long now) {
    if (reported == null) {
      return true;
    }
    if (now - reportedNanos < intervalNanos) {
      return false;
    }
    int before = reported.freeChunks;
    double nearly = settings.nearlyFull * reported.chunks;
    return Math.abs(free - before) >= step
        || (free > nearly) != (before > nearly)
        || (free == 0) != (before == 0)
        || now - reportedNanos >= keepaliveNanos;
  }

  private void connect() {
    ServerAddress address;
    try {
      address = ServerAddress.parse(leader);
    } catch (IllegalArgumentException e) {
      warnOnce("The tracker election names '" + leader + "', not host:port: " + e.getMessage());
      return;
    }
    ready = false;
    reported = null;
    heardNanos = System.nanoTime();
    Connection connection = new Connection(leader);
    Channel opened =
        bootstrap
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
                        .addLast(new FrameDecoder(Frame.MAX_CONTROL_PAYLOAD, connection.tracker))
                        .addLast(connection);
                  }
                })
            .connect(address.socketAddress())
            .channel();
    channel = opened;
    opened.closeFuture().addListener(f -> loop.execute(() -> closedLink(opened)));
  }

  private void closedLink(Channel gone) {
    if (channel == gone) {
      channel = null;
      ready = false;
      lost();
    }
  }

  private void lost() {
    if (lostAtMillis == 0) {
      lostAtMillis = System.currentTimeMillis();
    }
  }

  private void drop() {
    if (channel != null) {
      Channel old = channel;
      channel = null;
      ready = false;
      lost();
      old.close();
    }
  }

  private void warnOnce(String message) {
    if (!message.equals(warnedAbout)) {
      warnedAbout = message;
      LOG.warn(message);
    }
  }

  /** One connection to one leader: handshake, then pushes in and reports out. */
  private final class Connection extends SimpleChannelInboundHandler<InboundFrame> {
    final String tracker;
    private final ClientHandshake handshake;

    Connection(String tracker) {
      this.tracker = tracker;
      this.handshake =
          new ClientHandshake(settings.identity, settings.secret, "the sponge server", tracker);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, InboundFrame frame)
        throws WireException {
      ByteBuffer body = frame.payload.nioBuffer();
      switch (frame.opcode) {
        case CHALLENGE:
          Hello hello = handshake.answer(Challenge.decode(body, tracker), new byte[0]);
          ctx.writeAndFlush(
              Responses.frame(
                  ctx.alloc(), Opcode.HELLO, 0, 1, Unpooled.wrappedBuffer(hello.encode())));
          break;
        case HELLO_OK:
          handshake.check(HelloOk.decode(body, tracker));
          if (ctx.channel() == channel) {
            ready = true;
            heardNanos = System.nanoTime();
            sample(); // the full report, at once
          }
          break;
        case RACK_LIST:
          FreeList list = FreeList.decode(body, tracker);
          if (ctx.channel() == channel) {
            heardNanos = System.nanoTime();
            if (list.rack.equals(settings.rack)) {
              rackList = list;
              lostAtMillis = 0;
            }
          }
          break;
        case ERROR:
          throw ErrorBody.decode(body, tracker);
        default:
          throw new WireException(
              ErrorCode.OUT_OF_ORDER, tracker, "unexpected " + frame.opcode + " from a tracker");
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable reason =
          cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
      if (reason instanceof WireException
          && ((WireException) reason).code() == ErrorCode.NOT_LEADER) {
        LOG.debug("Tracker {} is not the leader (yet); retrying", tracker);
      } else if (reason instanceof WireException) {
        // An older tracker does not know REPORT: it polls this server instead. Try it rarely.
        retryAtNanos = System.nanoTime() + keepaliveNanos;
        warnOnce(
            "Tracker "
                + tracker
                + " refused this server's free-space report ("
                + reason.getMessage()
                + "); a tracker older than this server polls servers instead. Retrying every "
                + settings.keepaliveMillis
                + " ms (sponge.tracker.report.keepalive)");
      } else {
        LOG.debug("Connection to tracker {} failed: {}", tracker, reason.toString());
      }
      ctx.close();
    }
  }

  /** Stops following the election and closes the connection. Idempotent. */
  @Override
  public void close() {
    watch.unlisten(onLeader);
    sampler.cancel(false);
    if (loop.isShuttingDown()) {
      return;
    }
    loop.submit(
            () -> {
              closed = true;
              drop();
            })
        .awaitUninterruptibly(1, TimeUnit.SECONDS);
  }
}
