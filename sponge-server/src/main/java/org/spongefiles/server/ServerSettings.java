package org.spongefiles.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.TaskIdentity;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.RackResolver;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.pool.PoolSpec;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.daemon.DaemonAuth;
import org.spongefiles.daemon.DaemonOptions;

/**
 * The sponge server's settings, read once from its {@link Configuration} at start: every key of
 * {@link ServerOptions}, {@link DaemonOptions}, {@link ClusterOptions} and {@link SpongeOptions} is
 * parsed once by {@link ConfigCheck}, which also checks the rules tying keys together (a chunk is
 * whole checksum blocks), so the server's code takes typed values and never reads a key.
 */
final class ServerSettings {
  final PoolSpec pool;
  final long checksumBlockSize;
  final ClusterSecret secret;

  /** TLS of the wire port and of the liveness queries to other servers; null when off. */
  final TlsContext tls;

  final RemoteSettings remote;
  final String endpoint;

  /**
   * This node's rack as the tasks of the node resolve theirs: {@code sponge.rack}, else Hadoop's
   * topology mapping of this host's name (never of {@code sponge.node.id}).
   */
  final RackResolver.Rack rack;

  final String bindHost;
  final int port;
  final int threads;
  final long reclaimIntervalMillis;
  final long reclaimGraceMillis;
  final long quotaPerTask;
  final long quotaPerNode;
  final int metricsPort;
  final Duration shutdownTimeout;
  final long handshakeTimeoutMillis;
  final long idleTimeoutMillis;
  final int maxConnections;
  final int maxConnectionsPerAddress;
  final long refusalLogIntervalMillis;
  final boolean poolTouch;

  /** sponge.tracker.report.* and sponge.tracker.nearly.full: how it reports to the leader. */
  final long reportIntervalMillis;

  final long reportKeepaliveMillis;
  final double reportThreshold;
  final double nearlyFull;

  /** Where the server registers, when a quorum is configured. */
  final ZooKeeperSettings zookeeper;

  private ServerSettings(Configuration conf) {
    ParsedConfig parsed =
        ConfigCheck.validate(
            conf,
            new ServerOptions(),
            new DaemonOptions(),
            new ClusterOptions(),
            new TlsOptions(),
            new SpongeOptions());
    this.pool = SpongeSettings.poolSpec(parsed);
    this.checksumBlockSize = parsed.get(SpongeOptions.CHECKSUM_BLOCK_SIZE);
    checkPoolDir(pool.dir());
    this.secret = DaemonAuth.secret(parsed, "sponge server");
    this.tls = TlsContext.forDaemon(parsed);
    this.remote = SpongeSettings.remote(parsed);
    String node = TaskIdentity.nodeName(parsed);
    this.endpoint = SpongeSettings.nodeServerEndpoint(parsed, node);
    this.rack = RackResolver.resolve(parsed, conf, RackResolver.thisHost());
    this.bindHost = parsed.get(ServerOptions.BIND_HOST);
    this.port = parsed.get(SpongeOptions.SERVER_PORT);
    this.threads = parsed.get(ServerOptions.THREADS);
    this.reclaimIntervalMillis = parsed.get(ServerOptions.RECLAIM_INTERVAL).toMillis();
    this.reclaimGraceMillis = parsed.get(ServerOptions.RECLAIM_GRACE).toMillis();
    this.quotaPerTask = parsed.get(ServerOptions.QUOTA_PER_TASK);
    this.quotaPerNode = parsed.get(ServerOptions.QUOTA_PER_NODE);
    this.metricsPort = parsed.get(ServerOptions.METRICS_PORT);
    this.shutdownTimeout = parsed.get(ServerOptions.SHUTDOWN_TIMEOUT);
    this.handshakeTimeoutMillis = parsed.get(ServerOptions.HANDSHAKE_TIMEOUT).toMillis();
    this.idleTimeoutMillis = parsed.get(ServerOptions.IDLE_TIMEOUT).toMillis();
    this.maxConnections = parsed.get(ServerOptions.MAX_CONNECTIONS);
    this.maxConnectionsPerAddress = parsed.get(ServerOptions.MAX_CONNECTIONS_PER_ADDRESS);
    this.refusalLogIntervalMillis = parsed.get(ServerOptions.REFUSAL_LOG_INTERVAL).toMillis();
    this.poolTouch = parsed.get(ServerOptions.POOL_TOUCH);
    this.zookeeper = ZooKeeperSettings.from(parsed);
    this.reportIntervalMillis = parsed.get(ClusterOptions.REPORT_INTERVAL).toMillis();
    this.reportKeepaliveMillis = parsed.get(ClusterOptions.REPORT_KEEPALIVE).toMillis();
    this.reportThreshold = parsed.get(ClusterOptions.REPORT_THRESHOLD);
    this.nearlyFull = parsed.get(ClusterOptions.TRACKER_NEARLY_FULL);
  }

  /**
   * Parses and checks {@code conf} once.
   *
   * @throws ConfigException naming the key and value of the first unusable setting
   */
  static ServerSettings of(Configuration conf) {
    return new ServerSettings(conf);
  }

  /**
   * Tasks refuse chunks that are not whole checksum blocks: so does the server, for the size of a
   * pool it attaches to (the configured chunk size was checked with the other keys).
   */
  void checkPoolChunkSize(SharedPool attached) {
    SpongeOptions.checkBlocksFill(
        attached.chunkSize(), checksumBlockSize, "the chunk size of " + attached);
  }

  private static void checkPoolDir(Path dir) {
    String problem = null;
    if (!Files.exists(dir)) {
      problem = "does not exist";
    } else if (!Files.isDirectory(dir)) {
      problem = "is not a directory";
    } else if (!Files.isWritable(dir)) {
      problem = "is not writable by user " + System.getProperty("user.name");
    }
    if (problem != null) {
      throw new ConfigException(SpongeOptions.POOL_DIR.key(), dir.toString(), problem);
    }
  }
}
