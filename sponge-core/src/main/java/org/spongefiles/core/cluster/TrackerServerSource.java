package org.spongefiles.core.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.remote.ConnectionPool;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.RemoteUnavailable;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.remote.ServerSource;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;

/**
 * A task's view of the servers with free memory in its rack. It asks its own node's sponge server
 * first, which holds the rack list the leading tracker pushes to it, and the trackers only when
 * that server has no list (or the node runs none), so the leader is not asked once per task and
 * refresh. The list is refreshed in the background when older than {@code sponge.tracker.refresh};
 * a spill waits for it at most {@code sponge.tracker.timeout}, and only when it has no list at all.
 * When no tracker answers, the task keeps its last list and, failing that, reads the registered
 * servers of its rack from ZooKeeper; failing that, it has no remote candidates and spills to disk.
 * When the task ends up with no server at all (no tracker answers, one refuses the task's secret,
 * or the tracker knows no server in the task's rack), it says so once through {@link
 * RemoteUnavailable}.
 */
public final class TrackerServerSource implements ServerSource {
  private static final Logger LOG = LoggerFactory.getLogger(TrackerServerSource.class);

  private final List<ServerAddress> trackers;
  private final ServerAddress localServer; // null: none to ask
  private volatile long localSkippedUntilMillis;
  private final RackResolver.Rack rack;
  private final ConnectionPool connections;
  private final RemoteUnavailable unavailable;
  private final long timeoutMillis;
  private final long refreshMillis;
  private final double nearlyFull;
  private final RegistryFallback registry;
  private final ExecutorService refresher;
  private final Set<ServerAddress> reportedFull = ConcurrentHashMap.newKeySet();
  private static final String REGISTRY = "ZooKeeper registry";
  private volatile View view = View.NONE;
  private volatile ServerAddress leaderHint;

  /** When the last fetch started: a task asks at most once per refresh, answered or not. */
  private volatile long askedAtMillis;

  private CompletableFuture<View> pending;
  private CompletableFuture<View> awaited;
  private long awaitedUntilNanos;
  private boolean warned;

  /** A free list and where and when it came from. */
  private static final class View {
    static final View NONE = new View(List.of(), 0, "nothing yet");

    final List<FreeList.Entry> servers;
    final long fetchedAtMillis;
    final String origin;

    View(List<FreeList.Entry> servers, long fetchedAtMillis, String origin) {
      this.servers = servers;
      this.fetchedAtMillis = fetchedAtMillis;
      this.origin = origin;
    }

    long age() {
      return System.currentTimeMillis() - fetchedAtMillis;
    }
  }

  /**
   * @param localServer this node's sponge server, asked first; null when there is none to ask
   */
  public TrackerServerSource(
      ConfigValues conf,
      RackResolver.Rack rack,
      ServerAddress localServer,
      ConnectionPool connections,
      RemoteUnavailable unavailable) {
    this.localServer = localServer;
    this.trackers = new ArrayList<>();
    for (String tracker : conf.get(ClusterOptions.TRACKER_ADDRESSES)) {
      try {
        trackers.add(ServerAddress.parse(tracker));
      } catch (IllegalArgumentException e) {
        throw new org.spongefiles.core.config.ConfigException(
            ClusterOptions.TRACKER_ADDRESSES.key(), tracker, e.getMessage());
      }
    }
    this.rack = rack;
    this.connections = connections;
    this.unavailable = unavailable;
    this.timeoutMillis = conf.get(ClusterOptions.TRACKER_TIMEOUT).toMillis();
    this.refreshMillis = conf.get(ClusterOptions.TRACKER_REFRESH).toMillis();
    this.nearlyFull = conf.get(ClusterOptions.TRACKER_NEARLY_FULL);
    this.registry = RegistryFallback.of(ZooKeeperSettings.from(conf));
    this.refresher =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "sponge-tracker-client");
              thread.setDaemon(true);
              return thread;
            });
    refresh(); // the first list is on its way before the first spill
  }

  @Override
  public List<ServerAddress> candidates() {
    View current = view;
    if (current == View.NONE || refreshDue(current)) {
      CompletableFuture<View> refreshing = refresh();
      if (current == View.NONE) {
        long waitNanos = waitFor(refreshing);
        if (waitNanos > 0) {
          current = await(refreshing, waitNanos);
        }
      }
    }
    List<ServerAddress> servers = new ArrayList<>(current.servers.size());
    for (FreeList.Entry entry : current.servers) {
      ServerAddress server = ServerAddress.parse(entry.endpoint);
      if (!reportedFull.contains(server)) {
        servers.add(server);
      }
    }
    return servers;
  }

  /**
   * A list older than {@code sponge.tracker.refresh} is asked for again, but no sooner than that
   * after the last question: a task keeping an old list while the trackers re-elect (its server's
   * list ages, or no tracker answers) asks at its usual rate, not once per chunk.
   */
  private boolean refreshDue(View current) {
    return current.age() > refreshMillis
        && System.currentTimeMillis() - askedAtMillis > refreshMillis;
  }

  /**
   * A server has room while it is not nearly full and keeps at least half the free fraction of the
   * emptiest server of the rack: affinity yields before one node fills while others are empty.
   */
  @Override
  public boolean hasRoom(ServerAddress server) {
    if (reportedFull.contains(server)) {
      return false;
    }
    List<FreeList.Entry> servers = view.servers;
    double emptiest = 0;
    FreeList.Entry mine = null;
    for (FreeList.Entry entry : servers) {
      emptiest = Math.max(emptiest, freeFraction(entry));
      if (entry.endpoint.equals(server.toString())) {
        mine = entry;
      }
    }
    return mine != null
        && mine.freeChunks > Math.max(0, nearlyFull * mine.chunks)
        && freeFraction(mine) >= emptiest / 2;
  }

  private static double freeFraction(FreeList.Entry entry) {
    return entry.chunks == 0 ? 0 : entry.freeChunks / (double) entry.chunks;
  }

  @Override
  public void reportFull(ServerAddress server) {
    reportedFull.add(server);
  }

  /**
   * Counts a chunk this task just placed against the cached view, so the task sees a server fill as
   * it fills it instead of piling on until the next list arrives.
   */
  @Override
  public synchronized void stored(ServerAddress server) {
    View current = view;
    List<FreeList.Entry> servers = new ArrayList<>(current.servers);
    for (int i = 0; i < servers.size(); i++) {
      FreeList.Entry entry = servers.get(i);
      if (entry.endpoint.equals(server.toString())) {
        servers.set(
            i,
            new FreeList.Entry(
                entry.endpoint, Math.max(0, entry.freeChunks - 1), entry.chunks, entry.chunkSize));
        view = new View(servers, current.fetchedAtMillis, current.origin);
        return;
      }
    }
  }

  /**
   * How long a spill may wait for {@code refreshing}: the first spill up to the timeout, spills
   * that arrive while it waits (a file's chunks are stored by several I/O threads at once) until
   * the same deadline, and none after it: when a fetch outlives the timeout (a tracker or ZooKeeper
   * that does not answer), the spills that follow do not wait for it again.
   */
  private synchronized long waitFor(CompletableFuture<View> refreshing) {
    long now = System.nanoTime();
    if (awaited != refreshing) {
      awaited = refreshing;
      awaitedUntilNanos = now + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }
    return Math.max(0, awaitedUntilNanos - now);
  }

  /** Starts a refresh unless one is running; returns it. */
  private synchronized CompletableFuture<View> refresh() {
    if (pending == null || pending.isDone()) {
      pending = CompletableFuture.supplyAsync(this::fetch, refresher);
    }
    return pending;
  }

  private View await(CompletableFuture<View> refreshing, long waitNanos) {
    try {
      return refreshing.get(waitNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      LOG.debug("No free list within {} ms; spilling without one this time", timeoutMillis);
      return view;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return view;
    } catch (ExecutionException e) {
      return view;
    }
  }

  /**
   * Asks this node's server, then the trackers (the known leader first); falls back to ZooKeeper's
   * registry.
   */
  private View fetch() {
    askedAtMillis = System.currentTimeMillis();
    View local = askLocalServer();
    if (local != null) {
      return local;
    }
    List<ServerAddress> order = new ArrayList<>();
    ServerAddress hint = leaderHint;
    if (hint != null) {
      order.add(hint);
    }
    for (ServerAddress tracker : trackers) {
      if (!order.contains(tracker)) {
        order.add(tracker);
      }
    }
    List<String> problems = new ArrayList<>();
    WireException refused = null;
    for (int i = 0; i < order.size(); i++) {
      ServerAddress tracker = order.get(i);
      RemoteConnection connection = null;
      try {
        connection = connections.borrow(tracker);
        FreeList list = connection.freeList(rack.name());
        leaderHint = tracker;
        if (list.servers.isEmpty()) {
          unavailable.report(
              rack.known()
                  ? RemoteUnavailable.Reason.NO_SERVER_IN_RACK
                  : RemoteUnavailable.Reason.NO_RACK,
              "the memory tracker "
                  + tracker
                  + " knows no sponge server in rack "
                  + rack.name()
                  + " ("
                  + rack.origin()
                  + ")");
        }
        return accept(
            new View(
                list.servers, System.currentTimeMillis() - list.ageMillis, "tracker " + tracker));
      } catch (WireException e) {
        if (e.code() == ErrorCode.NOT_LEADER && !e.reason().isEmpty()) {
          // Asked next, unless already asked: a follower names a killed leader until its
          // ZooKeeper session ends.
          ServerAddress leader = ServerAddress.parse(e.reason());
          if (!order.subList(0, i + 1).contains(leader)) {
            order.remove(leader);
            order.add(i + 1, leader);
          }
        }
        if (e.code() == ErrorCode.AUTH_FAILED) {
          refused = e;
        }
        problems.add(tracker + ": " + e.reason());
      } catch (IOException | RuntimeException e) {
        problems.add(tracker + ": " + e.getMessage());
      } finally {
        if (connection != null) {
          connections.giveBack(connection);
        }
      }
    }
    if (refused != null) {
      reportRefused(refused);
    }
    return fallBack(problems);
  }

  /**
   * The list this node's server holds, or null when it has none: it names the leader then (asked
   * first), and a server that cannot be reached is skipped for {@value #LOCAL_SKIP_REFRESHES}
   * refreshes, so a node without one costs a task one failed connection now and then.
   */
  private View askLocalServer() {
    if (localServer == null || System.currentTimeMillis() < localSkippedUntilMillis) {
      return null;
    }
    RemoteConnection connection = null;
    try {
      connection = connections.borrow(localServer);
      FreeList list = connection.freeList(rack.name());
      return accept(
          new View(
              list.servers,
              System.currentTimeMillis() - list.ageMillis,
              "sponge server " + localServer));
    } catch (WireException e) {
      if (e.code() == ErrorCode.NOT_LEADER && !e.reason().isEmpty()) {
        leaderHint = ServerAddress.parse(e.reason());
      } else if (e.code() != ErrorCode.NOT_LEADER) {
        skipLocal(e.getMessage());
      }
    } catch (IOException | RuntimeException e) {
      skipLocal(e.getMessage());
    } finally {
      if (connection != null) {
        connections.giveBack(connection);
      }
    }
    return null;
  }

  static final int LOCAL_SKIP_REFRESHES = 15;

  private void skipLocal(String why) {
    LOG.debug("Not asking this node's sponge server {} for a while: {}", localServer, why);
    localSkippedUntilMillis = System.currentTimeMillis() + LOCAL_SKIP_REFRESHES * refreshMillis;
  }

  /** A tracker refused the task's handshake: the servers, sharing its secret, would too. */
  private void reportRefused(WireException e) {
    if (connections.hasSecret()) {
      unavailable.report(
          RemoteUnavailable.Reason.AUTH_FAILED,
          "the memory tracker " + e.peer() + " refused the handshake: " + e.reason());
    } else {
      unavailable.report(
          RemoteUnavailable.Reason.NO_SECRET,
          "sponge.auth.secret.file is not set and the memory tracker "
              + e.peer()
              + " requires the cluster secret");
    }
  }

  private View fallBack(List<String> problems) {
    View last = view;
    if (!last.servers.isEmpty() && last.age() < 30 * refreshMillis) {
      warnOnce(
          "No memory tracker answered ("
              + String.join("; ", problems)
              + "); using the last free list, "
              + last.age()
              + " ms old");
      return last;
    }
    List<FreeList.Entry> registered = registry.servers(rack.name());
    if (registered == null) {
      String why = registry.unavailable();
      if (last == View.NONE) {
        unavailable.report(
            registry.classesMissing()
                ? RemoteUnavailable.Reason.NO_ZOOKEEPER_CLASSES
                : RemoteUnavailable.Reason.NO_TRACKER_ANSWER,
            "no memory tracker answered ("
                + ClusterOptions.TRACKER_ADDRESSES.key()
                + "="
                + trackersText()
                + ": "
                + String.join("; ", problems)
                + ") and "
                + why);
        // Nothing anywhere: an empty list stamped now, so spills go on to disk without waiting
        // until the next refresh is due, which then runs in the background.
        view = new View(List.of(), System.currentTimeMillis(), "nothing (no tracker or registry)");
        return view;
      }
      warnOnce(
          "No memory tracker answered ("
              + String.join("; ", problems)
              + ") and "
              + why
              + "; using the last free list, "
              + last.age()
              + " ms old");
      return last;
    }
    if (registered.isEmpty() && last.servers.isEmpty()) {
      unavailable.report(
          rack.known()
              ? RemoteUnavailable.Reason.NO_SERVER_IN_RACK
              : RemoteUnavailable.Reason.NO_RACK,
          "no memory tracker answered ("
              + String.join("; ", problems)
              + ") and ZooKeeper has no sponge server registered in rack "
              + rack.name()
              + " ("
              + rack.origin()
              + ")");
    }
    warnOnce(
        "No memory tracker answered ("
            + String.join("; ", problems)
            + "); using the "
            + registered.size()
            + " servers ZooKeeper has registered in rack "
            + rack.name());
    return accept(new View(registered, System.currentTimeMillis(), REGISTRY));
  }

  private String trackersText() {
    List<String> text = new ArrayList<>();
    for (ServerAddress tracker : trackers) {
      text.add(tracker.toString());
    }
    return String.join(",", text);
  }

  private synchronized void warnOnce(String message) {
    if (!warned) {
      warned = true;
      LOG.warn(message);
    }
  }

  private View accept(View fresh) {
    view = fresh;
    reportedFull.clear();
    if (!fresh.origin.equals(REGISTRY)) {
      synchronized (this) {
        warned = false;
      }
    }
    return fresh;
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    registry.close();
  }

  @Override
  public String toString() {
    View current = view;
    return "rack "
        + rack
        + " free list from "
        + current.origin
        + " ("
        + current.servers.size()
        + " servers)";
  }
}
