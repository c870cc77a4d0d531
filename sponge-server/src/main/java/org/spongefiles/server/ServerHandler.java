package org.spongefiles.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkHandles;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.Processes;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.Handshake;
import org.spongefiles.daemon.netty.InboundFrame;
import org.spongefiles.daemon.netty.RequestHandler;
import org.spongefiles.daemon.netty.Responses;

/**
 * One client connection: challenge, authentication, then requests. A refusal (pool full, over
 * quota, a chunk that is not the task's) is answered with an ERROR and the connection stays; a
 * protocol fault (malformed, oversized or out-of-order frame, failed authentication) is answered
 * with an ERROR, logged with its reason, and the connection is closed. Other connections are never
 * affected.
 *
 * <p>Until the peer has authenticated it gets almost nothing: frames of at most {@link
 * Frame#MAX_UNAUTHENTICATED_PAYLOAD} bytes read into small buffers, {@code
 * sponge.server.handshake.timeout} to prove the secret, and no log line of its own (its faults go
 * to the {@link RefusalLog} summary). Once authenticated the frame limit grows to a chunk's worth,
 * a frame gathered whole is read in a buffer of its size, and a WRITE's data is read straight into
 * the chunk it names ({@link ServerFrameDecoder}); this handler answers it once it is in.
 */
final class ServerHandler extends RequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ServerHandler.class);

  private final PoolService service;
  private final Handshake handshake;
  private final ServerMetrics metrics;
  private final SpongeServer server;
  private final Limits limits;
  private String peer = "?";
  private InetAddress address;
  private ScheduledFuture<?> handshakeDeadline;
  private Hello hello;
  private long session;
  private String nodeKey;
  private int host;
  private int handling; // requests being handled now; a WRITE still receiving data is not one
  private ChunkRange streaming; // the WRITE receiving data into its (pinned) chunk

  /** What an authenticated connection may use, and how long a stranger may take to become one. */
  static final class Limits {
    final int maxPayload;
    final RecvByteBufAllocator receiveBuffers; // after authentication: the head of each request
    final long handshakeTimeoutMillis;
    final RefusalLog refusals;
    final SessionKeys sessions;

    Limits(
        int maxPayload,
        RecvByteBufAllocator receiveBuffers,
        long handshakeTimeoutMillis,
        RefusalLog refusals,
        SessionKeys sessions) {
      this.maxPayload = maxPayload;
      this.receiveBuffers = receiveBuffers;
      this.handshakeTimeoutMillis = handshakeTimeoutMillis;
      this.refusals = refusals;
      this.sessions = sessions;
    }
  }

  ServerHandler(
      PoolService service,
      ClusterSecret secret,
      ServerMetrics metrics,
      SpongeServer server,
      Limits limits) {
    super(LOG);
    this.service = service;
    this.handshake = new Handshake(secret);
    this.metrics = metrics;
    this.server = server;
    this.limits = limits;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    SocketAddress remote = ctx.channel().remoteAddress();
    peer = String.valueOf(remote);
    address =
        remote instanceof InetSocketAddress ? ((InetSocketAddress) remote).getAddress() : null;
    metrics.connections.inc();
    handshakeDeadline =
        ctx.executor()
            .schedule(
                () -> handshakeTimedOut(ctx), limits.handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
    handshake.challenge(ctx, service.chunkSize(), service.endpoint());
    ctx.fireChannelActive();
  }

  private void handshakeTimedOut(ChannelHandlerContext ctx) {
    if (hello == null && ctx.channel().isActive()) {
      limits.refusals.record(
          address,
          "handshake_timeout",
          peer + " did not authenticate within " + limits.handshakeTimeoutMillis + " ms");
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    handshakeDeadline.cancel(false);
    endStreaming();
    metrics.connections.dec();
    ctx.fireChannelInactive();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof IdleStateEvent) {
      // A WRITE whose data stopped arriving is idle too: its peer sent nothing for the timeout.
      if (handling == 0) {
        LOG.debug("Closing connection from {}: idle", peer);
        ctx.close();
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (msg instanceof ServerFrameDecoder.StreamedWrite) {
      written(ctx, (ServerFrameDecoder.StreamedWrite) msg);
    } else {
      super.channelRead(ctx, msg);
    }
  }

  /** Where this peer's WRITE data goes: a chunk it owns, checked as a whole WRITE would be. */
  private final class Targets implements ServerFrameDecoder.WriteTargets {
    private ChunkOwner owner;

    @Override
    public ByteBuffer open(ChunkRange range) {
      try {
        owner = service.existingOwner(hello, session, nodeKey, host);
        ByteBuffer target = service.writeTarget(owner, range, peer);
        streaming = range; // pinned until written() or the connection closes
        return target;
      } catch (WireException e) {
        return null; // the WRITE arrives whole and serve() refuses it
      }
    }

    @Override
    public void checkOwned(ChunkRange range) throws WireException {
      service.checkOwned(owner, range, peer);
    }
  }

  /** Answers a WRITE whose data {@link ServerFrameDecoder} received into the pool (or dropped). */
  private void written(ChannelHandlerContext ctx, ServerFrameDecoder.StreamedWrite write) {
    if (write.refusal() == null) {
      service.written(write.range); // recorded while the chunk is still pinned
    }
    endStreaming(); // the data is in the chunk or dropped: done with it before answering
    try {
      if (write.refusal() != null) {
        fail(ctx, write.requestId, write.refusal());
      } else {
        metrics.requests.labelValues(Opcode.WRITE.name()).inc();
        reply(ctx, Opcode.WRITTEN, write.requestId, ByteBuffer.allocate(0));
      }
    } finally {
      if (server.isDraining()) {
        ctx.channel().close();
      }
    }
  }

  private void endStreaming() {
    if (streaming != null) {
      service.unpin(streaming);
      streaming = null;
    }
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, InboundFrame frame) {
    handling++;
    try {
      requireRequest(frame);
      if (hello == null) {
        hello(ctx, frame);
      } else {
        serve(ctx, frame);
        metrics.requests.labelValues(frame.opcode.name()).inc();
      }
    } catch (WireException e) {
      fail(ctx, frame.requestId, e);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Request {} from {} failed", frame, peer, e);
      fail(ctx, frame.requestId, new WireException(ErrorCode.INTERNAL, peer, e.toString()));
    } finally {
      handling--;
      if (server.isDraining() && handling == 0) {
        ctx.channel().close();
      }
    }
  }

  private void hello(ChannelHandlerContext ctx, InboundFrame frame) throws IOException {
    Hello accepted;
    try {
      accepted = handshake.accept(ctx, frame, peer);
    } catch (WireException e) {
      if (e.code() == ErrorCode.AUTH_FAILED) {
        metrics.authFailures.inc();
      }
      throw e;
    }
    SocketAddress remote = ctx.channel().remoteAddress();
    String peerHost =
        remote instanceof InetSocketAddress
            ? ((InetSocketAddress) remote).getHostString()
            : String.valueOf(remote);
    String node = service.nodeKey(accepted, address, peerHost);
    byte[] ticket =
        accepted.ticket.length == 0 ? limits.sessions.issue(accepted, node) : accepted.ticket;
    try {
      session = limits.sessions.session(ticket, accepted, node, peer);
    } catch (WireException e) {
      metrics.authFailures.inc();
      throw e;
    }
    handshake.welcome(ctx, frame.requestId, accepted, ticket);
    hello = accepted;
    nodeKey = node;
    handshakeDeadline.cancel(false);
    ServerFrameDecoder frames = ctx.pipeline().get(ServerFrameDecoder.class);
    frames.authenticated(limits.maxPayload, new Targets());
    ((TwoStageRecvAllocator) ctx.channel().config().getRecvByteBufAllocator())
        .authenticated(frames);
    LOG.debug(
        "{} is task {} of node {}, session {}",
        peer,
        hello.taskId,
        nodeKey.isEmpty() ? "(this node)" : nodeKey,
        Long.toHexString(session));
  }

  private void serve(ChannelHandlerContext ctx, InboundFrame frame) throws IOException {
    ByteBuffer body = frame.payload.nioBuffer();
    switch (frame.opcode) {
      case ALLOCATE:
        {
          if (body.remaining() != 4) {
            throw new WireException(
                ErrorCode.MALFORMED_FRAME, peer, "ALLOCATE body of " + body.remaining() + " bytes");
          }
          ChunkOwner owner = service.ownerForAllocation(hello, session, nodeKey, host, peer);
          host = owner.host();
          List<ChunkHandle> chunks = service.allocate(owner, body.getInt(), peer);
          metrics.taskNames.record(owner.task(), hello.taskId);
          reply(ctx, Opcode.ALLOCATED, frame.requestId, ChunkHandles.encode(chunks));
          break;
        }
      case WRITE:
        {
          ChunkRange range = ChunkRange.decodeWrite(body, peer);
          ByteBuf data = frame.payload.slice(ChunkRange.WRITE_HEAD, range.length);
          service.write(service.existingOwner(hello, session, nodeKey, host), range, data, peer);
          reply(ctx, Opcode.WRITTEN, frame.requestId, ByteBuffer.allocate(0));
          break;
        }
      case READ:
        {
          ChunkRange range = ChunkRange.decodeRead(body, peer);
          ByteBuffer bytes =
              service.read(service.existingOwner(hello, session, nodeKey, host), range, peer);
          boolean queued = false;
          try {
            ctx.writeAndFlush(Responses.response(ctx, Opcode.DATA, frame.requestId, bytes))
                .addListener(sent -> service.unpin(range)); // sent, or dropped with the connection
            queued = true;
          } finally {
            if (!queued) {
              service.unpin(range);
            }
          }
          break;
        }
      case FREE:
        {
          int freed =
              service.free(
                  service.existingOwner(hello, session, nodeKey, host),
                  ChunkHandles.decode(body, peer));
          reply(ctx, Opcode.FREED, frame.requestId, ByteBuffer.allocate(4).putInt(freed).flip());
          break;
        }
      case STATS:
        reply(ctx, Opcode.STATS_REPLY, frame.requestId, service.stats().encode());
        break;
      case FREE_LIST:
        reply(
            ctx,
            Opcode.FREE_LIST_REPLY,
            frame.requestId,
            server.freeList(FreeList.decodeRequest(body, peer), peer).encode());
        break;
      case RACK_RELAY:
        // A relay's forward of the leader's list for this server's rack; never answered.
        server.relayed(RelayedList.decode(body, peer));
        break;
      case REPORT:
        // A rack peer's report to this server as its relay: carried to the leader, never answered.
        server.carry(FreeReport.decode(body, peer), peer);
        break;
      case LIVENESS:
        reply(
            ctx,
            Opcode.LIVENESS_REPLY,
            frame.requestId,
            Processes.encodeReply(service.liveness(Processes.decodeQuery(body, peer))));
        break;
      default:
        throw new WireException(
            ErrorCode.OUT_OF_ORDER, peer, frame.opcode + " is not a request (or a second HELLO)");
    }
  }

  private void reply(ChannelHandlerContext ctx, Opcode opcode, long requestId, ByteBuffer body) {
    ctx.writeAndFlush(Responses.response(ctx, opcode, requestId, body));
  }

  @Override
  protected String peer() {
    return peer;
  }

  /** Before authentication every fault closes the connection, logged only in the summary. */
  @Override
  protected void fail(ChannelHandlerContext ctx, long requestId, WireException e) {
    metrics.errors.labelValues(e.code().name()).inc();
    if (hello == null) {
      limits.refusals.record(
          address, e.code() == ErrorCode.AUTH_FAILED ? "auth_failed" : "bad_frame", e.getMessage());
      ctx.writeAndFlush(Responses.error(ctx, requestId, e.code(), e.reason()))
          .addListener(ChannelFutureListener.CLOSE);
    } else {
      super.fail(ctx, requestId, e);
    }
  }

  @Override
  protected void unexpected(Throwable reason) {
    metrics.errors.labelValues(ErrorCode.INTERNAL.name()).inc();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    // Back-pressure: stop reading requests while replies queue up unread by the client.
    ctx.channel().config().setAutoRead(ctx.channel().isWritable());
    ctx.fireChannelWritabilityChanged();
  }

  /**
   * True unless a request is being handled now; a WRITE whose data is still arriving is not handled
   * yet, so shutdown closes its connection at once (the client sees the WRITE fail).
   */
  boolean isIdle() {
    return handling == 0;
  }
}
