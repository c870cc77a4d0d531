package org.spongefiles.server.tracking;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.RackOrder;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.FreeReports;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.Responses;

/**
 * A sponge server's connection to the leading tracker. It samples the pool's free count every
 * quarter of a report interval (at most every 100 ms) and sends a REPORT when it changed past
 * {@code sponge.tracker.report.threshold} (at most once per report interval, or per sample when it
 * goes to a relay) or a keepalive is due; it keeps the rack list the leader hands it and answers
 * the node's tasks from it ({@link #answer}), ordered as the leader would order it. When the
 * election changes ({@link LeaderWatch}) it connects to the new leader at once and reports in full.
 *
 * <p>The leader names two of each rack's servers its relays and sends the rack's list (RACK_RELAY)
 * to the first at every push, to the second about once a second; a relay takes it and forwards it
 * to every other server of the rack ({@link RelayTargets}), whose data port hands it here ({@link
 * #relayed}). A list is taken only from the current leader, for this server's rack, and newer than
 * the one held (or the held one is two report intervals old). A list that names this server also
 * shows that the leader hears its reports, which keeps the link from being taken for silent.
 *
 * <p>Reports ride the relays too. A server that took from a relay a list naming it sends its
 * REPORTs to the first relay of that list it can reach ({@link RelayTargets#report}), as often as
 * once a sample, and the relay hands the leader the newest report of each server its list names in
 * one REPORTS frame per report interval ({@link #carry}): the leader reads one frame per rack and
 * interval instead of one per change. A server's first report to a leader is always its own, on its
 * own connection, and so is every report while no relay can be reached; when the connection to the
 * relay closes the next report is a full one. A leader that refuses a batch (one of the release
 * before batches) gets none again from this server, which then refuses its peers' reports, so they
 * report to the leader themselves.
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
  private final LinkChannels channels;
  private final RelayTargets relay;
  private final RackOrder order;
  private final Consumer<String> onLeader = this::leaderChanged;
  private final long intervalNanos;
  private final long keepaliveNanos;
  private final long sampleNanos;
  private final int step;
  private final ScheduledFuture<?> sampler;
  private final AtomicLong reports = new AtomicLong();
  private final AtomicLong fromLeader = new AtomicLong();
  private final AtomicLong fromRelays = new AtomicLong();
  private final AtomicLong viaRelay = new AtomicLong();
  private final AtomicLong toLeader = new AtomicLong();
  private final AtomicLong carried = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();

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
  private long sequence = Long.MIN_VALUE; // of the list held, within the current leader's term
  private long takenNanos; // when it was taken
  private long relayedNanos; // when this server last forwarded a list; 0: it relays nothing now
  private List<String> uplinks = List.of(); // the relays of the list last taken from a relay
  private final Map<String, FreeReport> pending = new LinkedHashMap<>(); // peers' reports to carry
  private long flushedNanos;
  private Channel batchedOn; // the connection the last batch went on
  private String refusesBatches = ""; // a leader that refused a batch

  // Read by the server's handlers:
  private volatile FreeList rackList;
  private volatile long lostAtMillis = System.currentTimeMillis();
  private volatile boolean carrying; // linked to a leader that takes batches

  /**
   * Starts following the leader named by {@code watch}, on one loop of {@code group}.
   *
   * @param group the event loops of the server's own client connections (the link uses one)
   */
  public LeaderLink(
      LinkSettings settings, PoolGauge pool, LeaderWatch watch, EventLoopGroup group) {
    this(settings, pool, watch, group, (loop, lost) -> new PeerRelay(settings, loop, lost));
  }

  /**
   * As above, forwarding the lists this server relays, and sending its reports to its relay,
   * through {@code relay} (made on the link's loop, with what to run there when the connection a
   * report went to a relay on closes) instead of over the peers' data ports.
   */
  public LeaderLink(
      LinkSettings settings,
      PoolGauge pool,
      LeaderWatch watch,
      EventLoopGroup group,
      BiFunction<EventLoop, Runnable, RelayTargets> relay) {
    this.settings = settings;
    this.pool = pool;
    this.watch = watch;
    this.loop = group.next();
    this.channels = new LinkChannels(settings, loop);
    this.relay = relay.apply(loop, this::uplinkLost);
    this.order = new RackOrder(settings.nearlyFull);
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(settings.intervalMillis);
    this.keepaliveNanos = TimeUnit.MILLISECONDS.toNanos(settings.keepaliveMillis);
    this.step = Math.max(1, (int) Math.ceil(settings.threshold * pool.chunks()));
    long sample = Math.max(5, Math.min(100, settings.intervalMillis / 4));
    this.sampleNanos = TimeUnit.MILLISECONDS.toNanos(sample);
    this.sampler =
        loop.scheduleWithFixedDelay(this::sampleOrWarn, sample, sample, TimeUnit.MILLISECONDS);
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

  /** Rack lists taken from the leader itself (as a relay) since start. */
  public long listsFromLeader() {
    return fromLeader.get();
  }

  /** Rack lists taken from a relay since start. */
  public long listsFromRelays() {
    return fromRelays.get();
  }

  /**
   * This server's own reports sent through a relay since start (counted in {@link #reportsSent}).
   */
  public long reportsViaRelay() {
    return viaRelay.get();
  }

  /**
   * This server's own reports sent to the leader itself since start, alone or in its own batch as
   * its rack's relay (counted in {@link #reportsSent}).
   */
  public long reportsToLeader() {
    return toLeader.get();
  }

  /** Rack peers' reports this server carried to the leader since start. */
  public long reportsCarried() {
    return carried.get();
  }

  /** REPORTS batches sent to the leader since start. */
  public long batchesSent() {
    return batches.get();
  }

  /**
   * A rack peer's report, sent to this server as its relay: carried to the leader in the next batch
   * (at most one per report interval), where it replaces any older report of the same server.
   *
   * @throws WireException NOT_LEADER when this server has no link to a leader that takes batches
   *     now, or its rack list does not name the report's server; the peer then reports to the
   *     leader itself
   */
  public void carry(FreeReport report, String peer) throws WireException {
    if (!carrying) {
      throw new WireException(
          ErrorCode.NOT_LEADER,
          peer,
          "this server carries no reports now (no link to a leader that takes them)");
    }
    FreeList list = rackList;
    if (list == null || !list.servers.stream().anyMatch(e -> e.endpoint.equals(report.endpoint))) {
      // Only the rack's listed servers: what waits for a batch stays as small as the rack.
      throw new WireException(
          ErrorCode.NOT_LEADER,
          peer,
          "a report of "
              + report.endpoint
              + ", which this server's list of rack "
              + settings.rack
              + " does not name; it reports to the leader itself");
    }
    try {
      loop.execute(
          () -> {
            if (carrying) {
              pending.put(report.endpoint, report);
            }
          });
    } catch (RejectedExecutionException closing) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, "this server is stopping");
    }
  }

  /**
   * A rack list a relay forwarded to this server's data port; taken on the link's loop if it is the
   * current leader's, of this rack and newer than the one held (see {@link #take}).
   */
  public void relayed(RelayedList list) {
    try {
      loop.execute(
          () -> {
            if (take(list)) {
              fromRelays.incrementAndGet();
              uplinks = list.lists(settings.endpoint) ? uplinks(list) : List.of();
            }
          });
    } catch (RejectedExecutionException closing) {
      // the server is stopping: the list has no one to serve
    }
  }

  /**
   * Holds {@code list} if it is the current leader's, of this server's rack, and newer than the one
   * held or that one is two report intervals old.
   */
  private boolean take(RelayedList list) {
    long now = System.nanoTime();
    if (closed
        || !list.leader.equals(leader)
        || !list.list.rack.equals(settings.rack)
        || list.sequence <= sequence && now - takenNanos < 2 * intervalNanos) {
      return false;
    }
    // The sequence only orders the two relays' copies of a push, which arrive within moments of
    // each other: after two report intervals any list of the leader is taken, so a list with a
    // sequence far ahead (a peer holding the cluster secret could send one) holds no longer.
    sequence = list.sequence;
    takenNanos = now;
    rackList = list.list;
    lostAtMillis = 0;
    if (list.lists(settings.endpoint)) {
      heardNanos = now; // the leader lists this server: it hears its reports
    }
    return true;
  }

  /**
   * The relays this server's reports go to, first first: the relays of {@code list} listed before
   * this server (none for the first relay, which carries its own; the first for the second relay;
   * both for the others), so that a rack's reports meet in one batch.
   */
  private List<String> uplinks(RelayedList list) {
    int self = list.relays.indexOf(settings.endpoint);
    return self < 0 ? list.relays : list.relays.subList(0, self);
  }

  private void leaderChanged(String now) {
    loop.execute(
        () -> {
          if (closed || now.equals(leader)) {
            return;
          }
          leader = now;
          sequence = Long.MIN_VALUE;
          relayedNanos = 0;
          uplinks = List.of();
          pending.clear();
          refusesBatches = "";
          relay.close();
          drop();
          retryAtNanos = 0;
          sample();
        });
  }

  /** A failed sample is logged: thrown, it would end the schedule, and with it every report. */
  private void sampleOrWarn() {
    try {
      sample();
    } catch (RuntimeException e) {
      LOG.warn("Sampling the pool for the tracker failed; the next sample retries", e);
    }
  }

  private void sample() {
    if (closed) {
      return;
    }
    long now = System.nanoTime();
    if (relayedNanos != 0 && now - relayedNanos > 2 * keepaliveNanos) {
      relayedNanos = 0; // the leader chose other relays: let go of the peers
      relay.close();
    }
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
    // A connection's first report is the server's own, on it: the leader counts a batch only for
    // servers it knows, the relay among them.
    boolean first = reported == null;
    boolean relayed = !first && !uplinks.isEmpty();
    if (due(free, now, relayed ? sampleNanos : intervalNanos)) {
      FreeReport report = new FreeReport(settings.endpoint, pool.chunkSize(), pool.chunks(), free);
      if (relayed && relay.report(uplinks, report)) {
        viaRelay.incrementAndGet();
      } else if (!first && !pending.isEmpty()) {
        pending.put(report.endpoint, report); // rides the batch due within an interval
        toLeader.incrementAndGet();
      } else {
        channel.writeAndFlush(
            Responses.frame(
                channel.alloc(), Opcode.REPORT, 0, 0, Unpooled.wrappedBuffer(report.encode())),
            channel.voidPromise());
        toLeader.incrementAndGet();
      }
      reported = report;
      reportedNanos = now;
      reports.incrementAndGet();
    }
    if (!pending.isEmpty() && now - flushedNanos >= intervalNanos) {
      flush(now);
    }
  }

  private void flush(long now) {
    int own = pending.containsKey(settings.endpoint) ? 1 : 0;
    carried.addAndGet(pending.size() - own);
    List<FreeReports> frames = FreeReports.inBatches(pending.values(), Frame.MAX_CONTROL_PAYLOAD);
    pending.clear();
    flushedNanos = now;
    batchedOn = channel;
    for (FreeReports batch : frames) {
      batches.incrementAndGet();
      channel.writeAndFlush(
          Responses.frame(
              channel.alloc(), Opcode.REPORTS, 0, 0, Unpooled.wrappedBuffer(batch.encode())),
          channel.voidPromise());
    }
  }

  /** The connection a report went to a relay on closed: the next report is a full one. */
  private void uplinkLost() {
    reported = null;
  }

  private boolean due(int free, long now, long gapNanos) {
    if (reported == null) {
      return true;
    }
    if (now - reportedNanos < gapNanos) {
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
    ready(false);
    reported = null;
    heardNanos = System.nanoTime();
    Channel opened = channels.open(address, new Connection(leader));
    channel = opened;
    opened.closeFuture().addListener(f -> loop.execute(() -> closedLink(opened)));
  }

  private void closedLink(Channel gone) {
    if (channel == gone) {
      channel = null;
      ready(false);
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
      ready(false);
      lost();
      old.close();
    }
  }

  private void ready(boolean now) {
    ready = now;
    carrying = now && !leader.equals(refusesBatches);
  }

  private void warnOnce(String message) {
    if (!message.equals(warnedAbout)) {
      warnedAbout = message;
      LOG.warn(message);
    }
  }

  /** One connection to one leader: handshake, then lists in and reports out. */
  private final class Connection extends LinkChannels.Authenticated {
    Connection(String tracker) {
      super(settings, tracker, "the sponge server");
    }

    @Override
    void authenticated(ChannelHandlerContext ctx) {
      if (ctx.channel() == channel) {
        ready(true);
        heardNanos = System.nanoTime();
        sample(); // the full report, at once
      }
    }

    @Override
    void frame(ChannelHandlerContext ctx, Opcode opcode, ByteBuffer body) throws WireException {
      switch (opcode) {
        case RACK_RELAY:
          RelayedList relayed = RelayedList.decode(body, peer);
          if (ctx.channel() == channel) {
            heardNanos = System.nanoTime();
            if (take(relayed)) {
              fromLeader.incrementAndGet();
              uplinks = uplinks(relayed);
              if (relayed.relays.contains(settings.endpoint)) {
                relay.forward(relayed, settings.endpoint);
                relayedNanos = System.nanoTime();
              }
            }
          }
          break;
        case RACK_LIST:
          // From a leader of the release before relays: it sends every server its rack's list.
          FreeList list = FreeList.decode(body, peer);
          if (ctx.channel() == channel) {
            heardNanos = System.nanoTime();
            if (list.rack.equals(settings.rack)) {
              rackList = list;
              lostAtMillis = 0;
            }
          }
          break;
        default:
          throw new WireException(
              ErrorCode.OUT_OF_ORDER, peer, "unexpected " + opcode + " from a tracker");
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable reason = reason(cause);
      if (reason instanceof WireException
          && ((WireException) reason).code() == ErrorCode.NOT_LEADER) {
        LOG.debug("Tracker {} is not the leader (yet); retrying", peer);
      } else if (reason instanceof WireException && ctx.channel() == batchedOn) {
        // A tracker of the release before batches does not know REPORTS: carry nothing to it.
        refusesBatches = peer;
        pending.clear();
        retryAtNanos = 0;
        warnOnce(
            "Tracker "
                + peer
                + " refused the batch of rack peers' reports this server relays ("
                + reason.getMessage()
                + "); a tracker older than this server takes each server's own reports only, so"
                + " this server's rack peers report to it themselves");
      } else if (reason instanceof WireException) {
        // An older tracker does not know REPORT: it polls this server instead. Try it rarely.
        retryAtNanos = System.nanoTime() + keepaliveNanos;
        warnOnce(
            "Tracker "
                + peer
                + " refused this server's free-space report ("
                + reason.getMessage()
                + "); a tracker older than this server polls servers instead. Retrying every "
                + settings.keepaliveMillis
                + " ms (sponge.tracker.report.keepalive)");
      } else {
        LOG.debug("Connection to tracker {} failed: {}", peer, reason.toString());
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
              relay.close();
              drop();
            })
        .awaitUninterruptibly(1, TimeUnit.SECONDS);
  }
}
