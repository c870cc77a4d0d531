package org.spongefiles.tracker;

import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.FreeReports;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.FrameDecoder;
import org.spongefiles.daemon.netty.Handshake;
import org.spongefiles.daemon.netty.InboundFrame;
import org.spongefiles.daemon.netty.RequestHandler;
import org.spongefiles.daemon.netty.Responses;

/**
 * One connection to a tracker: the same challenge and authentication as a sponge server, then
 * either a task's FREE_LIST requests or a sponge server's REPORTs, and a relay's REPORTS batches
 * after its own first REPORT (none is answered; the leader pushes RACK_RELAY frames on the same
 * connection instead). A tracker that is not the leader answers NOT_LEADER with the leader's
 * address; protocol faults close the connection.
 */
final class TrackerHandler extends RequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerHandler.class);

  private final MemoryTracker tracker;
  private final Handshake handshake;
  private final TrackerMetrics metrics;
  private final long handshakeMillis;
  private String peer = "?";
  private String reporter = ""; // the server whose own REPORTs come on this connection
  private boolean authenticated;
  private ScheduledFuture<?> handshakeDeadline;

  TrackerHandler(
      MemoryTracker tracker, ClusterSecret secret, TrackerMetrics metrics, long handshakeMillis) {
    super(LOG);
    this.tracker = tracker;
    this.handshake = new Handshake(secret);
    this.metrics = metrics;
    this.handshakeMillis = handshakeMillis;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    peer = String.valueOf(ctx.channel().remoteAddress());
    handshakeDeadline =
        ctx.executor()
            .schedule(
                () -> {
                  if (!authenticated) {
                    LOG.debug("Closing {}: no HELLO within {} ms", peer, handshakeMillis);
                    ctx.close();
                  }
                },
                handshakeMillis,
                TimeUnit.MILLISECONDS);
    handshake.challenge(ctx, 1, tracker.endpoint());
    ctx.fireChannelActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    handshakeDeadline.cancel(false);
    ctx.fireChannelInactive();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, InboundFrame frame) {
    try {
      requireRequest(frame);
      if (!authenticated) {
        handshake.welcome(ctx, frame.requestId, handshake.accept(ctx, frame, peer), new byte[0]);
        authenticated = true;
        handshakeDeadline.cancel(false);
        ctx.pipeline().get(FrameDecoder.class).setMaxPayload(Frame.MAX_CONTROL_PAYLOAD);
        return;
      }
      if (frame.opcode == Opcode.REPORT) {
        FreeReport report = FreeReport.decode(frame.payload.nioBuffer(), peer);
        tracker.report(ctx.channel(), report, peer);
        reporter = report.endpoint;
        return;
      }
      if (frame.opcode == Opcode.REPORTS) {
        tracker.reports(
            ctx.channel(), reporter, FreeReports.decode(frame.payload.nioBuffer(), peer), peer);
        return;
      }
      if (frame.opcode != Opcode.FREE_LIST) {
        throw new WireException(
            ErrorCode.OUT_OF_ORDER, peer, frame.opcode + " is not a tracker request");
      }
      String rack = FreeList.decodeRequest(frame.payload.nioBuffer(), peer);
      FreeList list = tracker.freeList(rack, peer);
      ctx.writeAndFlush(
          Responses.response(ctx, Opcode.FREE_LIST_REPLY, frame.requestId, list.encode()));
    } catch (WireException e) {
      if (e.code() == ErrorCode.NOT_LEADER) {
        metrics.requests.labelValues("not_leader").inc();
      }
      fail(ctx, frame.requestId, e);
    }
  }

  @Override
  protected String peer() {
    return peer;
  }
}
