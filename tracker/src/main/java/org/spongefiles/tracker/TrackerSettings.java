package org.spongefiles.tracker;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.TaskIdentity;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.daemon.DaemonAuth;
import org.spongefiles.daemon.DaemonOptions;

/**
 * The memory tracker's settings, read once from its {@link Configuration} at start: the keys of
 * {@link TrackerOptions}, {@link DaemonOptions}, {@link ClusterOptions} and the few of sponge-core
 * it uses (node and secret) are parsed once by {@link ConfigCheck}, and the cross-key rules are
 * checked here, so the tracker's code takes typed values and never reads a key.
 */
final class TrackerSettings {
  final String endpoint;
  final String bindHost;
  final int port;
  final long leaderCheckIntervalMillis;
  final long leaderCheckTimeoutMillis;
  final int metricsPort;
  final long handshakeTimeoutMillis;
  final double nearlyFull;
  final long reportIntervalMillis;
  final long keepaliveMillis;
  final ClusterSecret secret;

  /** TLS of the tracker's port, which tasks and the servers' reports use; null when off. */
  final TlsContext tls;

  /** Where the tracker elects its leader and finds the servers. */
  final ZooKeeperSettings zookeeper;

  private TrackerSettings(Configuration conf) {
    ParsedConfig parsed =
        ConfigCheck.validate(
            conf,
            new TrackerOptions(),
            new DaemonOptions(),
            new ClusterOptions(),
            new TlsOptions(),
            new CoreKeys());
    this.zookeeper =
        ZooKeeperSettings.from(parsed).required("the tracker elects its leader in ZooKeeper");
    this.secret = DaemonAuth.secret(parsed, "memory tracker");
    this.tls = TlsContext.forDaemon(parsed);
    this.bindHost = parsed.get(TrackerOptions.BIND_HOST);
    this.port = parsed.get(TrackerOptions.PORT);
    String explicit = parsed.get(TrackerOptions.ADDRESS);
    this.endpoint = explicit.isEmpty() ? TaskIdentity.nodeName(parsed) + ":" + port : explicit;
    this.leaderCheckIntervalMillis = parsed.get(TrackerOptions.LEADER_CHECK_INTERVAL).toMillis();
    this.leaderCheckTimeoutMillis = parsed.get(TrackerOptions.LEADER_CHECK_TIMEOUT).toMillis();
    this.metricsPort = parsed.get(TrackerOptions.METRICS_PORT);
    this.handshakeTimeoutMillis = parsed.get(TrackerOptions.HANDSHAKE_TIMEOUT).toMillis();
    this.nearlyFull = parsed.get(ClusterOptions.TRACKER_NEARLY_FULL);
    this.reportIntervalMillis = parsed.get(ClusterOptions.REPORT_INTERVAL).toMillis();
    this.keepaliveMillis = parsed.get(ClusterOptions.REPORT_KEEPALIVE).toMillis();
  }

  /**
   * Parses and checks {@code conf} once.
   *
   * @throws ConfigException naming the key and value of the first unusable setting
   */
  static TrackerSettings of(Configuration conf) {
    return new TrackerSettings(conf);
  }

  /**
   * The sponge-core keys a tracker reads. Only these: the pool and tier keys are no business of the
   * tracker's, and a bad value there must not stop it.
   */
  private static final class CoreKeys implements OptionSet {
    @Override
    public String title() {
      return "sponge-core: keys the tracker reads";
    }

    @Override
    public String summary() {
      return "The node name and the cluster secret.";
    }

    @Override
    public List<ConfigOption<?>> options() {
      return List.of(
          SpongeOptions.NODE_ID, SpongeOptions.AUTH_SECRET, SpongeOptions.AUTH_SECRET_FILE);
    }
  }
}
