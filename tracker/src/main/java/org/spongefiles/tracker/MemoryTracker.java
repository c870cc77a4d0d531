package org.spongefiles.tracker;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.RackOrder;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperLayout;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.FreeReports;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.MetricsEndpoint;
import org.spongefiles.daemon.RunningDaemon;
import org.spongefiles.daemon.netty.FrameDecoder;
import org.spongefiles.daemon.netty.TlsGate;

/**
 * A memory tracker. Trackers of a cluster elect one leader with a Curator {@link LeaderLatch};
 * every registered sponge server keeps a connection to the leader and reports its free space when
 * it changes, and the leader pushes each rack's list to that rack's servers ({@link ReportBoard}),
 * which answer their own tasks. The leader also answers FREE_LIST itself, for tasks whose node runs
 * no sponge server. Followers answer NOT_LEADER with the leader's address.
 *
 * <p>Stateless by design: everything the leader knows comes from the servers' reports of its
 * current term. Servers watch the election in ZooKeeper and report in full to a new leader as soon
 * as it wins, and it answers once every registered server reported (or one leader check interval
 * passed). Leadership can be lost, for instance when the ZooKeeper connection is suspended
 * (Curator's latch gives it up on SUSPENDED) and then regained, by this tracker or another: on
 * losing it the tracker forgets every report and closes the servers' connections at once, so it
 * never hands out a list from a time it was not leader, and on regaining it it waits for fresh
 * reports before answering.
 */
public final class MemoryTracker implements RunningDaemon {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryTracker.class);

  private final TrackerSettings settings;
  private final String endpoint;
  private final CuratorFramework zookeeper;
  private final ServerDirectory directory;
  private final SilentLeaderCheck silentLeader;
  private final LeaderLatchListener leadership = new Leadership();
  private volatile LeaderLatch latch;
  private final ReportBoard board;
  private final ScheduledExecutorService scheduler;
  private final RackOrder order;
  private final SplittableRandom random = new SplittableRandom();
  private final TrackerMetrics metrics;
  private final UnknownRacks unknownRacks = new UnknownRacks(LOG::warn);
  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup workers = new NioEventLoopGroup(1);
  private final AtomicBoolean closed = new AtomicBoolean();
  private boolean leading; // on the event loop: this term's reports are being taken
  private volatile String knownLeader = "";
  private Channel channel;
  private HTTPServer http;

  private MemoryTracker(TrackerSettings settings) {
    this.settings = settings;
    this.endpoint = settings.endpoint;
    this.order = new RackOrder(settings.nearlyFull);
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "sponge-tracker-rounds");
              thread.setDaemon(true);
              return thread;
            });
    ZooKeeperLayout layout = settings.zookeeper.layout();
    this.zookeeper = ZooKeeperClients.start(settings.zookeeper);
    this.metrics = new TrackerMetrics(this);
    this.directory = new ServerDirectory(zookeeper, layout, this::registryChanged);
    this.board =
        new ReportBoard(
            directory, endpoint, settings.reportIntervalMillis, settings.keepaliveMillis, metrics);
    this.silentLeader =
        new SilentLeaderCheck(
            zookeeper, layout.leaderLatch(), endpoint, (int) settings.leaderCheckTimeoutMillis);
    this.latch = newLatch();
  }

  private void registryChanged() {
    ReportBoard current = board;
    if (current != null) {
      current.registryChanged();
    }
  }

  /**
   * Reads and checks the configuration, joins the leader election and starts answering.
   *
   * @throws org.spongefiles.core.config.ConfigException naming the key of an invalid value
   */
  public static MemoryTracker start(Configuration conf) throws IOException {
    MemoryTracker tracker = new MemoryTracker(TrackerSettings.of(conf));
    try {
      tracker.begin();
      return tracker;
    } catch (Exception e) {
      tracker.close();
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      throw e instanceof IOException ? (IOException) e : new IOException(e.getMessage(), e);
    }
  }

  /** A peer refused before its handshake (TLS): counted, and one line each. */
  private void refused(InetAddress address, String reason, String detail) {
    metrics.refusedPeers.labelValues(reason).inc();
    LOG.warn("Refused a peer ({}): {}", reason, detail);
  }

  private void begin() throws Exception {
    ClusterSecret secret = settings.secret;
    long handshakeMillis = settings.handshakeTimeoutMillis;
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            new FrameDecoder(
                                Frame.MAX_UNAUTHENTICATED_PAYLOAD,
                                String.valueOf(ch.remoteAddress())))
                        .addLast(
                            new TrackerHandler(
                                MemoryTracker.this, secret, metrics, handshakeMillis));
                    if (settings.tls != null) {
                      TlsGate.serve(
                          ch.pipeline(),
                          settings.tls,
                          handshakeMillis,
                          MemoryTracker.this::refused);
                    }
                  }
                });
    String host = settings.bindHost;
    int port = settings.port;
    ChannelFuture bound = bootstrap.bind(host, port).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      throw new org.spongefiles.core.config.ConfigException(
          TrackerOptions.PORT.key(),
          Integer.toString(port),
          "cannot listen on " + host + ":" + port + ": " + bound.cause().getMessage());
    }
    channel = bound.channel();
    latch.start();
    long interval = settings.leaderCheckIntervalMillis;
    scheduler.scheduleWithFixedDelay(
        this::checkElection, interval, interval, TimeUnit.MILLISECONDS);
    // Ticks run on the connections' event loop, so reports and pushes need no locking. A 25 ms tick
    // was measured (TrackerScaleBench, 2026-11-27): it sent 12% more pushes at 10,000 servers and
    // did not shorten the worst staleness (docs/design.md), so a tick stays a quarter interval.
    long tick = Math.max(5, Math.min(100, settings.reportIntervalMillis / 4));
    loop().scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    int metricsPort = settings.metricsPort;
    if (metricsPort >= 0) {
      // The same host as the tracker's port: an operator who binds one binds both.
      http =
          MetricsEndpoint.start(
              host, metricsPort, metrics.registry, TrackerOptions.METRICS_PORT.key());
    }
    LOG.info(
        "Tracker {} listening on {}{}",
        endpoint,
        channel.localAddress(),
        http == null ? "" : ", metrics on " + host + ":" + http.getPort());
  }

  private LeaderLatch newLatch() {
    LeaderLatch fresh =
        new LeaderLatch(
            zookeeper,
            settings.zookeeper.layout().leaderLatch(),
            endpoint,
            LeaderLatch.CloseMode.NOTIFY_LEADER);
    fresh.addListener(leadership);
    return fresh;
  }

  /** What this tracker does on winning and losing the election. */
  private final class Leadership implements LeaderLatchListener {
    @Override
    public void isLeader() {
      LOG.info("Tracker {} is now the leader; taking the servers' reports", endpoint);
      loop()
          .execute(
              () -> {
                board.begin();
                leading = true;
              });
    }

    @Override
    public void notLeader() {
      LOG.info("Tracker {} is no longer the leader; forgetting every report", endpoint);
      loop().execute(MemoryTracker.this::stopLeading);
    }
  }

  private io.netty.channel.EventLoop loop() {
    return workers.next();
  }

  private void stopLeading() {
    leading = false;
    board.clear();
  }

  private void tick() {
    if (!leading) {
      return;
    }
    if (!latch.hasLeadership()) {
      stopLeading();
      return;
    }
    try {
      board.tick(io.netty.buffer.ByteBufAllocator.DEFAULT);
    } catch (RuntimeException e) {
      LOG.warn("Tracker tick failed; the next one retries", e);
    }
  }

  /**
   * Once per leader check interval: a follower checks the leader lives, the leader that it leads.
   */
  private void checkElection() {
    if (!latch.hasLeadership()) {
      knownLeader = lookUpLeader();
      checkLeader();
    } else if (!stillLeads()) {
      stepDown();
    }
  }

  /** Takes a server's report; on the event loop. NOT_LEADER when this tracker does not lead. */
  void report(io.netty.channel.Channel channel, FreeReport report, String peer)
      throws WireException {
    if (!leading || !latch.hasLeadership()) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, leaderEndpoint());
    }
    board.report(channel, report);
  }

  /**
   * Takes a relay's batch of its rack's reports, arriving on the connection {@code relay} reports
   * its own on; on the event loop. NOT_LEADER when this tracker does not lead.
   */
  void reports(Channel channel, String relay, FreeReports batch, String peer) throws WireException {
    if (!leading || !latch.hasLeadership()) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, leaderEndpoint());
    }
    board.carried(channel, relay, batch, peer);
  }

  /**
   * The free list of {@code rack}, or NOT_LEADER (with the leader's address when known) when this
   * tracker is not the leader or is still waiting for the servers' first reports of its term.
   */
  FreeList freeList(String rack, String peer) throws WireException {
    if (!leading || !latch.hasLeadership() || !board.ready(settings.leaderCheckIntervalMillis)) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, leaderEndpoint());
    }
    RackView current = board.view();
    if (current.rack(rack).isEmpty()) {
      unknownRacks.asked(rack, peer, current);
      metrics.requests.labelValues("no_server_in_rack").inc();
    } else {
      metrics.requests.labelValues("ok").inc();
    }
    java.util.List<FreeList.Entry> order;
    synchronized (random) {
      order = this.order.order(current.rack(rack), random);
    }
    return new FreeList(0, rack, order);
  }

  /**
   * The leader's address as of the last leader check, or empty when unknown (or this tracker, still
   * warming up). Cached: asking ZooKeeper blocks, and this is answered on the event loop.
   */
  String leaderEndpoint() {
    return knownLeader;
  }

  /** On a follower: removes a leader whose process is gone (see {@link SilentLeaderCheck}). */
  private void checkLeader() {
    try {
      if (silentLeader.checkLeader()) {
        knownLeader = lookUpLeader();
      }
    } catch (Exception e) {
      LOG.debug("Could not check the tracker leader: {}", e.toString());
    }
  }

  private boolean stillLeads() {
    try {
      return silentLeader.stillLeads();
    } catch (Exception e) {
      // ZooKeeper unreachable: Curator's latch gives leadership up on its own when it must.
      return true;
    }
  }

  /**
   * Leaves and rejoins the election after a follower removed this leader's latch node (taking it
   * for dead): two leaders would split the servers' reports between them.
   */
  private synchronized void stepDown() {
    if (closed.get()) {
      return;
    }
    LOG.warn(
        "Tracker {} no longer holds the first leader latch node (a follower took it for dead);"
            + " stepping down and rejoining the election",
        endpoint);
    LeaderLatch old = latch;
    latch = newLatch();
    try {
      old.close();
    } catch (IOException | IllegalStateException e) {
      LOG.debug("Closing the old leader latch of {}: {}", endpoint, e.toString());
    }
    loop().execute(this::stopLeading);
    try {
      latch.start();
    } catch (Exception e) {
      LOG.warn("Tracker {} could not rejoin the election: {}", endpoint, e.toString());
    }
  }

  /** Asks ZooKeeper who leads; on the scheduler's thread, never on the event loop. */
  private String lookUpLeader() {
    try {
      String leader = latch.getLeader().getId();
      return leader.equals(endpoint) ? "" : leader;
    } catch (Exception e) {
      return "";
    }
  }

  public boolean isLeader() {
    return latch.hasLeadership();
  }

  /** The leader's rack lists as of its last tick, or null when not leader. */
  RackView view() {
    return isLeader() ? board.view() : null;
  }

  public String endpoint() {
    return endpoint;
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  public int metricsPort() {
    return http == null ? -1 : http.getPort();
  }

  /** Leaves the election (another tracker takes over at once) and stops. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (!closed.compareAndSet(false, true)) {
        return;
      }
    }
    try {
      latch.close();
    } catch (IOException | IllegalStateException e) {
      LOG.debug("Leader latch of {} was not started", endpoint);
    }
    scheduler.shutdownNow();
    directory.close();
    zookeeper.close();
    if (channel != null) {
      channel.close().syncUninterruptibly();
    }
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    if (http != null) {
      http.close();
    }
    LOG.info("Tracker {} stopped", endpoint);
  }

  @Override
  public String toString() {
    return "tracker " + endpoint + (isLeader() ? " (leader)" : "");
  }
}
