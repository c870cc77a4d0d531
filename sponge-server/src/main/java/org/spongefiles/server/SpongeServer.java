package org.spongefiles.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ServerRegistry;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.MetricsEndpoint;
import org.spongefiles.daemon.RunningDaemon;
import org.spongefiles.daemon.netty.TlsGate;
import org.spongefiles.server.tracking.LeaderLink;
import org.spongefiles.server.tracking.LeaderWatch;
import org.spongefiles.server.tracking.LinkSettings;
import org.spongefiles.server.tracking.PoolGauge;

/**
 * A node's sponge server: attaches to (or creates) the node's shared pool, the same one the node's
 * tasks map directly, and lends it to SpongeFiles of other nodes over the wire protocol ({@link
 * Frame}). It reclaims chunks of dead owners every {@code sponge.server.reclaim.interval}, serves
 * Prometheus metrics and a health check, and shuts down gracefully: it stops accepting, lets
 * requests already received finish, then closes connections and releases the pool.
 */
public final class SpongeServer implements RunningDaemon {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeServer.class);

  /**
   * Bytes read for the head of an authenticated peer's next request: any control request fits, and
   * of a WRITE's data at most this much is copied into its chunk rather than read into it.
   */
  static final int HEAD_READ = 4 << 10;

  private final ServerSettings settings;
  private final SharedPool pool;
  private final String endpoint;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final ScheduledExecutorService sweeper;
  private final Reclaimer reclaimer;
  private final ServerMetrics metrics;
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ConnectionGate gate;
  private final RefusalLog refusals;
  private final String rack;
  private Channel serverChannel;
  private HTTPServer http;
  private final ClientIdentity self;
  private final SplittableRandom random = new SplittableRandom();
  private CuratorFramework zookeeper;
  private Closeable registration;
  private LeaderWatch leaderWatch;
  private volatile LeaderLink leaderLink;

  private SpongeServer(ServerSettings settings, SharedPool pool, SessionKeys sessions) {
    this.settings = settings;
    this.pool = pool;
    this.endpoint = settings.endpoint;
    this.rack = settings.rack.name();
    this.metrics = new ServerMetrics(pool);
    this.gate = new ConnectionGate(settings.maxConnections, settings.maxConnectionsPerAddress);
    this.refusals = new RefusalLog(metrics.refusedPeers, LOG::warn);
    this.boss = new NioEventLoopGroup(1);
    this.workers = new NioEventLoopGroup(settings.threads);
    ClusterSecret secret = settings.secret;
    QuotaLedger ledger = new QuotaLedger();
    ChunkPins pins = new ChunkPins();
    ledger.rebuild(pool::owners);
    this.self =
        ClientIdentity.leased(
            endpoint,
            pool.processLease().id(),
            ProcessLiveness.currentPid(),
            ChunkOwner.taskHash("sponge-server"),
            "sponge-server@" + endpoint);
    this.reclaimer =
        new Reclaimer(
            pool,
            ledger,
            metrics,
            self,
            secret,
            settings.tls,
            settings.remote,
            settings.reclaimGraceMillis,
            pins);
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "sponge-server-reclaim");
              thread.setDaemon(true);
              return thread;
            });
    PoolService service =
        new PoolService(
            pool,
            endpoint,
            rack,
            settings.quotaPerTask,
            settings.quotaPerNode,
            ledger,
            metrics,
            pins);
    int maxPayload = pool.chunkSize() + Frame.MAX_CONTROL_PAYLOAD;
    this.handlerLimits =
        new ServerHandler.Limits(
            maxPayload,
            // The head of the next request; the rest of a longer frame is read in one buffer
            // of its size, and a WRITE's data straight into its chunk (TwoStageRecvAllocator).
            new FixedRecvByteBufAllocator(HEAD_READ),
            settings.handshakeTimeoutMillis,
            refusals,
            sessions);
    this.handlerFactory = () -> new ServerHandler(service, secret, metrics, this, handlerLimits);
  }

  private final ServerHandler.Limits handlerLimits;
  private final HandlerFactory handlerFactory;

  private interface HandlerFactory {
    ServerHandler create();
  }

  /**
   * Reads and checks the configuration, attaches to the pool and starts serving.
   *
   * @throws org.spongefiles.core.config.ConfigException naming the key of an invalid value
   * @throws IOException when the pool or a port cannot be used
   */
  public static SpongeServer start(Configuration conf) throws IOException {
    ServerSettings settings = ServerSettings.of(conf);
    SharedPool pool = SharedPool.open(settings.pool);
    try {
      settings.checkPoolChunkSize(pool);
    } catch (ConfigException e) {
      pool.close();
      throw e;
    }
    if (settings.poolTouch) {
      long start = System.nanoTime();
      long touched = pool.touchAll();
      LOG.info(
          "Touched {} bytes of {} in {} ms (sponge.server.pool.touch)",
          touched,
          pool,
          (System.nanoTime() - start) / 1_000_000);
    }
    SpongeServer server;
    try {
      server = new SpongeServer(settings, pool, SessionKeys.forPool(pool.metadataFile()));
    } catch (IOException | RuntimeException e) {
      pool.close();
      throw e;
    }
    try {
      server.bind();
      return server;
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private void bind() throws IOException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(
                ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(2 * pool.chunkSize(), 8 * pool.chunkSize()))
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    if (draining.get()) {
                      ch.close();
                      return;
                    }
                    InetAddress address = ch.remoteAddress().getAddress();
                    ConnectionGate.Admission admission = gate.admit(address);
                    if (admission != ConnectionGate.Admission.ADMITTED) {
                      refuse(ch, admission);
                      return;
                    }
                    ch.closeFuture().addListener(closed -> gate.release(address));
                    channels.add(ch);
                    // Until HELLO succeeds a peer's bytes are read into small buffers only.
                    ch.config()
                        .setRecvByteBufAllocator(
                            new TwoStageRecvAllocator(
                                new FixedRecvByteBufAllocator(
                                    Frame.HEADER_SIZE + Frame.MAX_UNAUTHENTICATED_PAYLOAD),
                                handlerLimits.receiveBuffers,
                                settings.tls == null));
                    ch.pipeline()
                        .addLast(
                            "idle",
                            new IdleStateHandler(
                                0, 0, settings.idleTimeoutMillis, TimeUnit.MILLISECONDS))
                        .addLast(
                            "frames",
                            new ServerFrameDecoder(
                                Frame.MAX_UNAUTHENTICATED_PAYLOAD,
                                String.valueOf(ch.remoteAddress())))
                        .addLast("handler", handlerFactory.create());
                    if (settings.tls != null) {
                      TlsGate.serve(
                          ch.pipeline(),
                          settings.tls,
                          settings.handshakeTimeoutMillis,
                          refusals::record);
                    }
                  }
                });
    String host = settings.bindHost;
    int port = settings.port;
    io.netty.channel.ChannelFuture bound = bootstrap.bind(host, port).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      throw new ConfigException(
          SpongeOptions.SERVER_PORT.key(),
          Integer.toString(port),
          "cannot listen on " + host + ":" + port + ": " + bound.cause().getMessage());
    }
    serverChannel = bound.channel();
    long interval = settings.reclaimIntervalMillis;
    sweeper.scheduleWithFixedDelay(reclaimer, interval, interval, TimeUnit.MILLISECONDS);
    long logInterval = settings.refusalLogIntervalMillis;
    sweeper.scheduleWithFixedDelay(
        refusals::flush, logInterval, logInterval, TimeUnit.MILLISECONDS);
    int metricsPort = settings.metricsPort;
    if (metricsPort >= 0) {
      // The same host as the wire port: metrics name task attempts, so they listen no wider.
      http =
          MetricsEndpoint.start(
              host, metricsPort, metrics.registry, ServerOptions.METRICS_PORT.key());
    }
    if (settings.zookeeper.configured()) {
      zookeeper = ZooKeeperClients.start(settings.zookeeper);
      registration =
          ServerRegistry.register(
              zookeeper,
              settings.zookeeper.layout(),
              new ServerRegistration(
                  ServerAddress.parse(endpoint),
                  rack,
                  pool.chunkCount(),
                  pool.chunkSize(),
                  http == null ? -1 : http.getPort()));
      followTracker();
    }
    if (!settings.rack.known()) {
      LOG.warn(
          "Sponge server {} has no rack of its own ({}): only tasks whose rack is {} too will"
              + " borrow its memory; set sponge.rack or net.topology.script.file.name",
          endpoint,
          settings.rack.origin(),
          rack);
    }
    LOG.info(
        "Sponge server {} (rack {}) listening on {} with pool {} ({}){}",
        endpoint,
        rack,
        serverChannel.localAddress(),
        pool.metadataFile(),
        pool.stats(),
        http == null ? "" : ", metrics on " + host + ":" + http.getPort());
  }

  /** Reports to the leading tracker and keeps the rack list it pushes ({@link LeaderLink}). */
  private void followTracker() {
    leaderWatch = new LeaderWatch(zookeeper, settings.zookeeper.layout().leaderLatch());
    leaderLink =
        new LeaderLink(
            new LinkSettings(
                endpoint,
                rack,
                self,
                settings.secret,
                settings.tls,
                settings.reportIntervalMillis,
                settings.reportKeepaliveMillis,
                settings.reportThreshold,
                settings.nearlyFull,
                settings.remote.connectTimeout().toMillis()),
            new PoolGauge() {
              @Override
              public int chunkSize() {
                return pool.chunkSize();
              }

              @Override
              public int chunks() {
                return pool.chunkCount();
              }

              @Override
              public int freeChunks() {
                return pool.freeChunks();
              }
            },
            leaderWatch,
            workers);
    metrics.follow(leaderLink);
  }

  /**
   * A task of this node asks for its rack's free list: answered from the list the leader pushed.
   *
   * @throws WireException NOT_LEADER (naming the leader when known) when this server has no list to
   *     answer with; the task then asks the trackers
   */
  FreeList freeList(String rackAsked, String peer) throws WireException {
    LeaderLink link = leaderLink;
    if (link == null) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, "");
    }
    return link.answer(rackAsked, peer, random);
  }

  /** A rack list a relay forwarded to this server: kept if it is the current leader's. */
  void relayed(RelayedList list) {
    LeaderLink link = leaderLink;
    if (link != null) {
      link.relayed(list);
    }
  }

  /**
   * A rack peer's report to this server as its relay: carried to the leader in the link's next
   * batch.
   *
   * @throws WireException NOT_LEADER when this server carries no reports now (no link to a leader
   *     that takes them); the peer then reports to the leader itself
   */
  void carry(FreeReport report, String peer) throws WireException {
    LeaderLink link = leaderLink;
    if (link == null) {
      throw new WireException(ErrorCode.NOT_LEADER, peer, "this server follows no tracker");
    }
    link.carry(report, peer);
  }

  /**
   * This server's link to the leading tracker (null before it follows one): its lists and reports.
   */
  public LeaderLink leaderLink() {
    return leaderLink;
  }

  private void refuse(SocketChannel channel, ConnectionGate.Admission admission) {
    boolean total = admission == ConnectionGate.Admission.TOO_MANY_CONNECTIONS;
    refusals.record(
        channel.remoteAddress().getAddress(),
        total ? "max_connections" : "max_connections_per_address",
        channel.remoteAddress()
            + " over "
            + (total
                ? "sponge.server.max.connections"
                : "sponge.server.max.connections.per.address"));
    channel.close();
  }

  /** The open client connections (for tests that act on the server's side of one). */
  ChannelGroup connections() {
    return channels;
  }

  /** The address the server listens on. */
  public InetSocketAddress address() {
    return (InetSocketAddress) serverChannel.localAddress();
  }

  /** This node's server as other nodes address it (sponge.server.address or node:port). */
  public String endpoint() {
    return endpoint;
  }

  /** The port of the metrics endpoint, or -1 when it is off. */
  public int metricsPort() {
    return http == null ? -1 : http.getPort();
  }

  public SharedPool pool() {
    return pool;
  }

  /** The summary of refused peers; tests flush it rather than wait for its interval. */
  RefusalLog refusals() {
    return refusals;
  }

  /** Connections currently admitted. */
  int connectionCount() {
    return gate.total();
  }

  /** Runs a reclaim sweep now (the periodic one runs on its own); returns chunks freed. */
  public int reclaimNow() throws IOException {
    return reclaimer.sweep();
  }

  boolean isDraining() {
    return draining.get();
  }

  /**
   * Stops accepting, lets requests already received finish (up to {@code
   * sponge.server.shutdown.timeout}), closes every connection and releases the pool. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    draining.set(true);
    if (leaderLink != null) {
      leaderLink.close();
    }
    if (leaderWatch != null) {
      leaderWatch.close();
    }
    unregister();
    if (serverChannel != null) {
      serverChannel.close().syncUninterruptibly();
    }
    for (Channel channel : channels) {
      channel
          .eventLoop()
          .execute(
              () -> {
                ServerHandler handler = channel.pipeline().get(ServerHandler.class);
                if (handler == null || handler.isIdle()) {
                  channel.close();
                }
              });
    }
    long deadline = System.nanoTime() + settings.shutdownTimeout.toNanos();
    while (!channels.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    channels.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
    sweeper.shutdownNow();
    refusals.flush();
    if (http != null) {
      http.close();
    }
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    pool.close();
    LOG.info("Sponge server {} stopped", endpoint);
  }

  /** Leaves the ZooKeeper registry so trackers stop listing this server. */
  private void unregister() {
    try {
      if (registration != null) {
        registration.close();
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not unregister {} from ZooKeeper: {}", endpoint, e.toString());
    } finally {
      if (zookeeper != null) {
        zookeeper.close();
      }
    }
  }

  /** The rack this server registered in. */
  public String rack() {
    return rack;
  }

  @Override
  public String toString() {
    return "sponge server " + endpoint;
  }
}
