package org.spongefiles.tracker;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.FreeReports;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.daemon.netty.Responses;

/**
 * The leader's picture of the cluster, built from the servers' own reports: each registered server
 * keeps a connection to the leader and sends a REPORT on it when its free space changed past a
 * threshold (at most once per {@code sponge.tracker.report.interval}) and as a keepalive, or sends
 * it to its rack's relay, which hands the leader the rack's newest reports in one REPORTS batch per
 * interval ({@link #carried}). Each {@link #tick} rebuilds only the racks a report changed and
 * sends each such rack's list (RACK_RELAY, naming the rack's {@value #RELAYS} longest-reporting
 * servers as its relays) to the first relay, at most once per three quarters of a report interval
 * and every keepalive even when unchanged, and to the second at most once a second ({@value
 * #STANDBY_SECONDS} s, or every keepalive when shorter); the first forwards each list to every
 * other server of the rack, the second too, and the second the lists it gets from the leader, so
 * the rack keeps getting lists, if slower, when the first stops. So the leader's work per second
 * grows with changes, not with servers: about one frame read and one written per busy rack and
 * interval (not one read per change and one write per server of the rack). A relay that goes leaves
 * the rack at once; the next push goes to the next two.
 *
 * <p>Not thread-safe: every method runs on the tracker's single event loop. Only {@link #view()} is
 * read from other threads.
 */
final class ReportBoard {
  private static final Logger LOG = LoggerFactory.getLogger(ReportBoard.class);

  /** A server that silent for this many keepalives is taken for gone and its connection closed. */
  static final int SILENT_KEEPALIVES = 3;

  /** Servers per rack the leader sends the rack's list to; each forwards it to the others. */
  static final int RELAYS = 2;

  /**
   * The second relay gets the rack's list from the leader at least this often (or every keepalive
   * when that is shorter), the first every push; the first forwards every push to the second too.
   */
  static final int STANDBY_SECONDS = 1;

  private final ServerDirectory directory;
  private final String leader;
  // A rack is pushed at most once per three quarters of an interval: its relay's batches, one per
  // interval, are then pushed at the tick after they arrive (a tick is a quarter interval).
  private final long pushGapNanos;
  private final long keepaliveNanos;
  private final long standbyNanos;
  private final TrackerMetrics metrics;
  private final Map<String, Reporter> reporters = new HashMap<>();
  private final Map<String, Rack> racks = new HashMap<>();
  private volatile boolean directoryChanged = true;
  private volatile RackView view = RackView.EMPTY;
  private long startedNanos;
  private long silenceCheckedNanos;
  private long sequence; // of the last list sent, increasing across this tracker's terms
  private long droppedLoggedNanos = System.nanoTime() - TimeUnit.MINUTES.toNanos(1);

  /** One server's connection and its last report. */
  private static final class Reporter {
    final Channel channel;
    FreeReport report;
    Rack rack; // null while the server is not registered (yet)
    long heardNanos;

    Reporter(Channel channel) {
      this.channel = channel;
    }
  }

  /** A rack's reporting servers and the list last pushed to them. */
  private static final class Rack {
    final String name;
    final Set<Reporter> members = new LinkedHashSet<>();
    boolean dirty = true;
    long pushedNanos;
    long standbyPushedNanos; // when the second relay last got the list from the leader itself
    List<FreeList.Entry> list = List.of();

    Rack(String name) {
      this.name = name;
    }
  }

  /**
   * @param leader this tracker's endpoint as the election names it
   */
  ReportBoard(
      ServerDirectory directory,
      String leader,
      long intervalMillis,
      long keepaliveMillis,
      TrackerMetrics metrics) {
    this.directory = directory;
    this.leader = leader;
    this.pushGapNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis) * 3 / 4;
    this.keepaliveNanos = TimeUnit.MILLISECONDS.toNanos(keepaliveMillis);
    this.standbyNanos = Math.min(keepaliveNanos, TimeUnit.SECONDS.toNanos(STANDBY_SECONDS));
    this.metrics = metrics;
  }

  /** Starts a term: every server's first report is awaited afresh. */
  void begin() {
    startedNanos = System.nanoTime();
    directoryChanged = true;
    // A later term of this tracker starts above what servers kept from an earlier one.
    sequence = Math.max(sequence, TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis()));
  }

  /** Called from Curator's thread when the registry changed; joined at the next tick. */
  void registryChanged() {
    directoryChanged = true;
  }

  /** Records a server's own report arriving on {@code channel}. */
  void report(Channel channel, FreeReport report) {
    metrics.reports.inc();
    metrics.reportFrames.labelValues("report").inc();
    Reporter reporter = reporters.get(report.endpoint);
    if (reporter == null || reporter.channel != channel) {
      if (reporter != null) {
        // The server reconnected before its old connection was seen to close.
        leave(reporter);
        reporter.channel.close();
      }
      reporter = new Reporter(channel);
      reporters.put(report.endpoint, reporter);
      Reporter joined = reporter;
      channel.closeFuture().addListener(f -> gone(report.endpoint, joined));
      ServerRegistration registration = directory.servers().get(report.endpoint);
      move(reporter, registration == null ? null : rack(registration.rack()));
    }
    take(reporter, report);
  }

  /**
   * Records a relay's batch of its rack's reports, arriving on {@code channel}, the connection the
   * relay's own reports come on. A report counts only for a server that reports to this leader on a
   * connection of its own (its first report of a term is always its own) and is of the relay's
   * rack; others are dropped, each such batch logged once a minute.
   */
  void carried(Channel channel, String relay, FreeReports batch, String peer) {
    metrics.reportFrames.labelValues("batch").inc();
    metrics.reports.inc(batch.reports.size());
    Reporter carrier = reporters.get(relay);
    int dropped = 0;
    for (FreeReport report : batch.reports) {
      Reporter reporter = reporters.get(report.endpoint);
      if (carrier == null
          || carrier.channel != channel
          || carrier.rack == null
          || reporter == null
          || reporter.rack != carrier.rack) {
        dropped++;
      } else {
        take(reporter, report);
      }
    }
    if (dropped > 0) {
      long now = System.nanoTime();
      if (now - droppedLoggedNanos >= TimeUnit.MINUTES.toNanos(1)) {
        droppedLoggedNanos = now;
        LOG.info(
            "Dropped {} of {} reports relayed by {} ({}): not of the relay's rack, or from servers"
                + " not (yet) connected to this leader; they report again",
            dropped,
            batch.reports.size(),
            relay.isEmpty() ? "a server that sent no report of its own" : relay,
            peer);
      }
    }
  }

  private void take(Reporter reporter, FreeReport report) {
    FreeReport before = reporter.report;
    reporter.report = report;
    reporter.heardNanos = System.nanoTime();
    if (reporter.rack != null
        && (before == null
            || before.freeChunks != report.freeChunks
            || before.chunks != report.chunks)) {
      reporter.rack.dirty = true;
    }
  }

  private void gone(String endpoint, Reporter reporter) {
    if (reporters.get(endpoint) == reporter) {
      reporters.remove(endpoint);
      leave(reporter);
    }
  }

  private void leave(Reporter reporter) {
    move(reporter, null);
  }

  private void move(Reporter reporter, Rack to) {
    if (reporter.rack == to) {
      return;
    }
    if (reporter.rack != null) {
      reporter.rack.members.remove(reporter);
      reporter.rack.dirty = true;
    }
    reporter.rack = to;
    if (to != null) {
      to.members.add(reporter);
      to.dirty = true;
    }
  }

  private Rack rack(String name) {
    return racks.computeIfAbsent(name, Rack::new);
  }

  /**
   * Joins registry changes, closes the connections of servers silent for {@value
   * #SILENT_KEEPALIVES} keepalives, rebuilds the changed racks and pushes the lists that are due.
   */
  void tick(ByteBufAllocator alloc) {
    long now = System.nanoTime();
    Map<String, ServerRegistration> registered = directory.servers();
    if (directoryChanged) {
      directoryChanged = false;
      for (Map.Entry<String, Reporter> entry : reporters.entrySet()) {
        ServerRegistration registration = registered.get(entry.getKey());
        move(entry.getValue(), registration == null ? null : rack(registration.rack()));
      }
    }
    if (now - silenceCheckedNanos >= TimeUnit.SECONDS.toNanos(1)) {
      silenceCheckedNanos = now;
      closeSilent(now);
    }
    boolean changed = false;
    for (Rack rack : racks.values()) {
      boolean due = rack.dirty && now - rack.pushedNanos >= pushGapNanos;
      if (!due && now - rack.pushedNanos < keepaliveNanos) {
        continue;
      }
      if (rack.dirty) {
        rack.list = entries(rack);
        rack.dirty = false;
        changed = true;
      }
      push(rack, alloc, now);
      rack.pushedNanos = now;
    }
    if (changed || view == RackView.EMPTY || view.registered != registered.size()) {
      Map<String, List<FreeList.Entry>> lists = new HashMap<>();
      int reporting = 0;
      for (Rack rack : racks.values()) {
        lists.put(rack.name, rack.list);
        reporting += rack.members.size();
      }
      view = new RackView(lists, registered.size(), reporting);
    }
    metrics.tickNanos = System.nanoTime() - now;
  }

  /** Once a second: a server silent for three keepalives is taken for gone. */
  private void closeSilent(long now) {
    for (Reporter reporter : new ArrayList<>(reporters.values())) {
      if (now - reporter.heardNanos > SILENT_KEEPALIVES * keepaliveNanos) {
        LOG.warn(
            "Sponge server {} sent no report for {} ms ({} keepalives); closing its connection",
            reporter.report.endpoint,
            TimeUnit.NANOSECONDS.toMillis(now - reporter.heardNanos),
            SILENT_KEEPALIVES);
        reporter.channel.close();
      }
    }
  }

  private static List<FreeList.Entry> entries(Rack rack) {
    List<FreeList.Entry> entries = new ArrayList<>(rack.members.size());
    for (Reporter reporter : rack.members) {
      entries.add(reporter.report.entry());
    }
    return entries;
  }

  private void push(Rack rack, ByteBufAllocator alloc, long now) {
    if (rack.members.isEmpty()) {
      return;
    }
    List<Reporter> relays = new ArrayList<>(RELAYS);
    List<String> endpoints = new ArrayList<>(RELAYS);
    for (Reporter reporter : rack.members) {
      relays.add(reporter);
      endpoints.add(reporter.report.endpoint);
      if (relays.size() == RELAYS) {
        break;
      }
    }
    if (relays.size() > 1 && now - rack.standbyPushedNanos < standbyNanos) {
      relays.remove(1); // the first relay forwards it to the second
    } else {
      rack.standbyPushedNanos = now;
    }
    RelayedList relayed =
        new RelayedList(leader, ++sequence, endpoints, new FreeList(0, rack.name, rack.list));
    ByteBuf frame =
        Responses.frame(alloc, Opcode.RACK_RELAY, 0, 0, Unpooled.wrappedBuffer(relayed.encode()));
    try {
      for (Reporter relay : relays) {
        relay.channel.writeAndFlush(frame.retainedDuplicate(), relay.channel.voidPromise());
      }
    } finally {
      frame.release();
    }
    metrics.pushes.inc();
  }

  /**
   * Whether the leader can answer: every registered server has reported, or {@code graceMillis}
   * passed since this term began (a server that never reports, such as one of an older version, is
   * then left out).
   */
  boolean ready(long graceMillis) {
    RackView current = view;
    return current.reporting >= current.registered && current != RackView.EMPTY
        || System.nanoTime() - startedNanos >= TimeUnit.MILLISECONDS.toNanos(graceMillis);
  }

  /** Forgets every server and closes their connections (on losing leadership). */
  void clear() {
    for (Reporter reporter : new ArrayList<>(reporters.values())) {
      reporter.channel.close();
    }
    reporters.clear();
    racks.clear();
    view = RackView.EMPTY;
  }

  RackView view() {
    return view;
  }
}
