package org.spongefiles.server.tracking;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.Responses;

/**
 * A server's connection to its relay's data port, which its REPORTs go on (authenticated as this
 * server, under TLS when the server uses it): to the first relay of its list that is not waiting
 * out a failure. The report that opens the connection goes to the leader instead, as does every
 * report while the handshake runs or the relay stops reading. A relay that could not be reached is
 * tried again after {@value PeerRelay#RETRY_SECONDS} s, one that refused a report (an older server,
 * another secret, a relay with no link to a leader that takes batches) after a keepalive. When a
 * connection that carried reports closes, {@code lost} runs: what it carried last may not have
 * reached the leader. Everything runs on the link's event loop.
 */
final class RelayUplink {
  private static final Logger LOG = LoggerFactory.getLogger(RelayUplink.class);

  private final LinkSettings settings;
  private final LinkChannels channels;
  private final Runnable lost;
  private final Map<String, Long> retryAt = new HashMap<>();
  private final Set<String> warned = new HashSet<>();
  private Uplink current;

  /**
   * @param lost run on the loop when a connection that carried reports closes
   */
  RelayUplink(LinkSettings settings, EventLoop loop, Runnable lost) {
    this.settings = settings;
    this.channels = new LinkChannels(settings, loop);
    this.lost = lost;
  }

  /** See {@link RelayTargets#report}. */
  boolean report(List<String> relays, FreeReport report) {
    String target = target(relays);
    if (target == null) {
      close();
      return false;
    }
    if (current == null || !current.endpoint.equals(target)) {
      close();
      current = connect(target);
      return false;
    }
    if (!current.ready || !current.channel.isWritable()) {
      return false;
    }
    current.carried = true;
    current.channel.writeAndFlush(
        Responses.frame(
            current.channel.alloc(), Opcode.REPORT, 0, 0, Unpooled.wrappedBuffer(report.encode())),
        current.channel.voidPromise());
    return true;
  }

  private String target(List<String> relays) {
    long now = System.nanoTime();
    for (String relay : relays) {
      if (relay.equals(settings.endpoint)) {
        continue;
      }
      Long retry = retryAt.get(relay);
      if (retry == null || now - retry >= 0) {
        retryAt.remove(relay);
        return relay;
      }
    }
    return null;
  }

  private Uplink connect(String endpoint) {
    ServerAddress address;
    try {
      address = ServerAddress.parse(endpoint);
    } catch (IllegalArgumentException e) {
      warnOnce(
          endpoint, "Rack list names relay '" + endpoint + "', not host:port: " + e.getMessage());
      retryAt.put(
          endpoint, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.keepaliveMillis));
      return null;
    }
    Uplink uplink = new Uplink(endpoint);
    uplink.channel = channels.open(address, uplink);
    uplink.channel.closeFuture().addListener(f -> gone(uplink));
    return uplink;
  }

  private void gone(Uplink uplink) {
    if (!retryAt.containsKey(uplink.endpoint) && !uplink.closing) {
      retryAt.put(
          uplink.endpoint, System.nanoTime() + TimeUnit.SECONDS.toNanos(PeerRelay.RETRY_SECONDS));
    }
    if (current == uplink) {
      current = null;
    }
    if (uplink.carried) {
      lost.run();
    }
  }

  private void warnOnce(String endpoint, String message) {
    if (warned.add(endpoint)) {
      LOG.warn(message);
    }
  }

  /** Lets go of the connection, if any. */
  void close() {
    if (current != null) {
      current.closing = true;
      current.channel.close();
      current = null;
    }
  }

  /** One connection to one relay. */
  private final class Uplink extends LinkChannels.Authenticated {
    final String endpoint;
    Channel channel;
    boolean ready;
    boolean carried; // a report went on it
    boolean closing; // closed by this side: no retry wait

    Uplink(String endpoint) {
      super(settings, endpoint, "the reporting sponge server");
      this.endpoint = endpoint;
    }

    @Override
    void authenticated(ChannelHandlerContext ctx) {
      ready = true;
    }

    @Override
    void frame(ChannelHandlerContext ctx, Opcode opcode, ByteBuffer body) throws WireException {
      throw new WireException(
          ErrorCode.OUT_OF_ORDER, endpoint, "unexpected " + opcode + " from a relay");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable reason = reason(cause);
      if (reason instanceof WireException) {
        // An older server does not know REPORT on its data port, a peer with another secret
        // refuses this one, and a relay with no link to a leader that takes batches refuses.
        retryAt.put(
            endpoint, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.keepaliveMillis));
        if (((WireException) reason).code() == ErrorCode.NOT_LEADER) {
          LOG.debug("Relay {} carries no reports now: {}", endpoint, reason.getMessage());
        } else {
          warnOnce(
              endpoint,
              "Sponge server "
                  + endpoint
                  + " refused this server's report as its relay ("
                  + reason.getMessage()
                  + "); this server reports to the leader itself, and tries the relay again every "
                  + settings.keepaliveMillis
                  + " ms (sponge.tracker.report.keepalive)");
        }
      } else {
        LOG.debug("Connection to relay {} failed: {}", endpoint, reason.toString());
      }
      ctx.close();
    }
  }
}
