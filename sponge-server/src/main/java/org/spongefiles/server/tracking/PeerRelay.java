package org.spongefiles.server.tracking;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.Responses;

/**
 * A server's connections to its rack peers' data ports: as a relay, to the peers it forwards lists
 * to; as a peer, to the relay its reports go to ({@link RelayUplink}). The relay's connections are
 * authenticated as this server (and under TLS when the server uses it), opened on the first list to
 * forward and kept while the peer is listed. A peer still in its handshake gets only the newest
 * list once it is in; a peer whose connection failed before it was in is tried again after {@value
 * #RETRY_SECONDS} s, the other relay and the next lists covering it meanwhile; a peer that stops
 * reading is skipped until it reads again (a list replaces the one before, so nothing queues up).
 * Everything runs on the link's event loop.
 */
final class PeerRelay implements RelayTargets {
  private static final Logger LOG = LoggerFactory.getLogger(PeerRelay.class);
  static final int RETRY_SECONDS = 2;

  private final LinkSettings settings;
  private final LinkChannels channels;
  private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
  private final Map<String, Peer> peers = new HashMap<>();
  private final Map<String, Long> retryAt = new HashMap<>();
  private final Set<String> warned = new HashSet<>();

  private final RelayUplink uplink;

  /**
   * @param lost run on the loop when the connection this server's reports went to its relay on
   *     closes
   */
  PeerRelay(LinkSettings settings, EventLoop loop, Runnable lost) {
    this.settings = settings;
    this.channels = new LinkChannels(settings, loop);
    this.uplink = new RelayUplink(settings, loop, lost);
  }

  @Override
  public boolean report(List<String> relays, FreeReport report) {
    return uplink.report(relays, report);
  }

  @Override
  public void forward(RelayedList relayed, String self) {
    Set<String> targets = new HashSet<>();
    for (FreeList.Entry entry : relayed.list.servers) {
      if (!entry.endpoint.equals(self)) {
        targets.add(entry.endpoint); // the other relay too: the leader sends it fewer lists
      }
    }
    for (Iterator<Map.Entry<String, Peer>> it = peers.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Peer> peer = it.next();
      if (!targets.contains(peer.getKey())) {
        it.remove();
        peer.getValue().close();
      }
    }
    retryAt.keySet().retainAll(targets);
    ByteBuf frame =
        Responses.frame(alloc, Opcode.RACK_RELAY, 0, 0, Unpooled.wrappedBuffer(relayed.encode()));
    try {
      long now = System.nanoTime();
      for (String target : targets) {
        Peer peer = peers.get(target);
        if (peer == null) {
          Long retry = retryAt.get(target);
          if (retry != null && now - retry < 0) {
            continue;
          }
          peer = connect(target);
          if (peer == null) {
            continue;
          }
        }
        peer.send(frame);
      }
    } finally {
      frame.release();
    }
  }

  private Peer connect(String endpoint) {
    ServerAddress address;
    try {
      address = ServerAddress.parse(endpoint);
    } catch (IllegalArgumentException e) {
      warnOnce(endpoint, "Rack list names '" + endpoint + "', not host:port: " + e.getMessage());
      retryAt.put(endpoint, System.nanoTime() + TimeUnit.SECONDS.toNanos(RETRY_SECONDS));
      return null;
    }
    Peer peer = new Peer(endpoint);
    peers.put(endpoint, peer);
    peer.channel = channels.open(address, peer);
    Channel opened = peer.channel;
    opened.closeFuture().addListener(f -> gone(peer));
    return peer;
  }

  private void gone(Peer peer) {
    if (peers.get(peer.endpoint) == peer) {
      peers.remove(peer.endpoint);
      if (!peer.ready) {
        retryAt.put(peer.endpoint, System.nanoTime() + TimeUnit.SECONDS.toNanos(RETRY_SECONDS));
      }
    }
    peer.dropPending();
  }

  private void warnOnce(String endpoint, String message) {
    if (warned.add(endpoint)) {
      LOG.warn(message);
    }
  }

  /** Peers connected now (or connecting). */
  int peers() {
    return peers.size();
  }

  @Override
  public void close() {
    uplink.close();
    // A channel closed on its own loop runs its close listener (gone) at once, which would change
    // the map under the loop.
    List<Peer> all = new ArrayList<>(peers.values());
    peers.clear();
    retryAt.clear();
    for (Peer peer : all) {
      peer.close();
    }
  }

  /** One rack peer's connection. */
  private final class Peer extends LinkChannels.Authenticated {
    final String endpoint;
    Channel channel;
    boolean ready;
    ByteBuf pending; // the newest list while the handshake runs

    Peer(String endpoint) {
      super(settings, endpoint, "the relaying sponge server");
      this.endpoint = endpoint;
    }

    void send(ByteBuf frame) {
      if (ready) {
        // A peer that stopped reading gets no backlog: each list replaces the one before.
        if (channel.isWritable()) {
          channel.writeAndFlush(frame.retainedDuplicate(), channel.voidPromise());
        }
      } else {
        dropPending();
        pending = frame.retainedDuplicate();
      }
    }

    void dropPending() {
      if (pending != null) {
        pending.release();
        pending = null;
      }
    }

    void close() {
      dropPending();
      channel.close();
    }

    @Override
    void authenticated(ChannelHandlerContext ctx) {
      ready = true;
      if (pending != null) {
        ByteBuf frame = pending;
        pending = null;
        ctx.writeAndFlush(frame, ctx.voidPromise());
      }
    }

    @Override
    void frame(ChannelHandlerContext ctx, Opcode opcode, ByteBuffer body) throws WireException {
      throw new WireException(
          ErrorCode.OUT_OF_ORDER, endpoint, "unexpected " + opcode + " from a rack peer");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable reason = reason(cause);
      if (reason instanceof WireException) {
        // An older server does not know RACK_RELAY; a peer with another secret refuses this one.
        warnOnce(
            endpoint,
            "Sponge server "
                + endpoint
                + " refused the rack list this server relays ("
                + reason.getMessage()
                + "); it gets its list from the other relay or asks the trackers");
      } else {
        LOG.debug("Connection to rack peer {} failed: {}", endpoint, reason.toString());
      }
      ctx.close();
    }
  }
}
