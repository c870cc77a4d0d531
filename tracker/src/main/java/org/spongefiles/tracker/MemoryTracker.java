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
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperLayout;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.MetricsEndpoint;
import org.spongefiles.daemon.RunningDaemon;
import org.spongefiles.daemon.netty.FrameDecoder;
import org.spongefiles.daemon.netty.TlsGate;

/**
 * A memory tracker. Trackers of a cluster elect one leader with a Curator {@link LeaderLatch}; the
 * leader polls every registered sponge server about once a second and answers tasks' FREE_LIST
 * requests for their rack. Followers answer NOT_LEADER with the leader's address.
 *
 * <p>Stateless by design: everything the leader knows comes from its last poll round, so a new
 * leader answers as soon as its first round completes (about one poll interval). Leadership can be
 * lost, for instance when the ZooKeeper connection is suspended (Curator's latch gives it up on
 * SUSPENDED) and then regained, by this tracker or another: on losing it the tracker forgets its
 * view at once, so it never hands out a list from a time it was not leader, and on regaining it it
 * polls afresh before answering.
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
  private final StatsPoller poller;
  private final ScheduledExecutorService scheduler;
  private final PlacementPolicy policy;
  private final SplittableRandom random = new SplittableRandom();
  private final TrackerMetrics metrics;
  private final UnknownRacks unknownRacks = new UnknownRacks(LOG::warn);
  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup workers = new NioEventLoopGroup(1);
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile ClusterView view;
  private volatile String knownLeader = "";
  private Channel channel;
  private HTTPServer http;

  private MemoryTracker(TrackerSettings settings) {
    this.settings = settings;
    this.endpoint = settings.endpoint;
    this.policy = new PlacementPolicy(settings.nearlyFull);
    ClientIdentity self =
        new ClientIdentity(
            endpoint,
            ProcessLiveness.currentPid(),
            ProcessLiveness.currentStartMillis(),
            ChunkOwner.taskHash("sponge-tracker"),
            "sponge-tracker@" + endpoint);
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "sponge-tracker-rounds");
              thread.setDaemon(true);
              return thread;
            });
    ZooKeeperLayout layout = settings.zookeeper.layout();
    this.zookeeper = ZooKeeperClients.start(settings.zookeeper);
    this.directory = new ServerDirectory(zookeeper, layout);
    this.poller =
        new StatsPoller(directory, self, settings.secret, settings.tls, settings.pollTimeoutMillis);
    this.silentLeader =
        new SilentLeaderCheck(
            zookeeper, layout.leaderLatch(), endpoint, (int) settings.pollTimeoutMillis);
    this.latch = newLatch();
    this.metrics = new TrackerMetrics(this);
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
    long interval = settings.pollIntervalMillis;
    scheduler.scheduleWithFixedDelay(this::pollRound, interval, interval, TimeUnit.MILLISECONDS);
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
      LOG.info("Tracker {} is now the leader; polling servers", endpoint);
      scheduler.execute(MemoryTracker.this::pollRound);
    }

    @Override
    public void notLeader() {
      LOG.info("Tracker {} is no longer the leader; forgetting its view", endpoint);
      view = null;
      scheduler.execute(poller::reset);
    }
  }

  private void pollRound() {
    if (!latch.hasLeadership()) {
      view = null;
      knownLeader = lookUpLeader();
      checkLeader();
      return;
    }
    if (!stillLeads()) {
      stepDown();
      return;
    }
    try {
      ClusterView fresh = poller.round();
      if (latch.hasLeadership()) {
        view = fresh;
        metrics.rounds.inc();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("Poll round failed; the next one retries", e);
    }
  }

  /**
   * The free list of {@code rack}, or NOT_LEADER (with the leader's address when known) when this
   * tracker is not the leader or has not completed a poll round since it became leader.
   */
  FreeList freeList(String rack, String peer) throws WireException {
    ClusterView current = view;
    if (current == null || !latch.hasLeadership()) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, leaderEndpoint());
    }
    if (current.rack(rack).isEmpty()) {
      unknownRacks.asked(rack, peer, current);
      metrics.requests.labelValues("no_server_in_rack").inc();
    } else {
      metrics.requests.labelValues("ok").inc();
    }
    java.util.List<FreeList.Entry> order;
    synchronized (random) {
      order = policy.order(current.rack(rack), random);
    }
    return new FreeList(current.ageMillis(), rack, order);
  }

  /**
   * The leader's address as of the last poll interval, or empty when unknown (or this tracker,
   * still warming up). Cached: asking ZooKeeper blocks, and this is answered on the event loop.
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
   * for dead): two leaders would both poll every server.
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
    view = null;
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

  /** The leader's last view, or null when not leader. */
  ClusterView view() {
    return view;
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
    view = null;
    try {
      latch.close();
    } catch (IOException | IllegalStateException e) {
      LOG.debug("Leader latch of {} was not started", endpoint);
    }
    scheduler.shutdownNow();
    poller.close();
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
