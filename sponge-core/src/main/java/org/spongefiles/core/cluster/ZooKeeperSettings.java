package org.spongefiles.core.cluster;

import java.time.Duration;
import java.util.Objects;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigValues;

/**
 * The parsed {@code sponge.zookeeper.*} keys: the quorum, the timeouts a Curator client is built
 * with, and where SpongeFiles keeps its nodes. A task, daemon or tool builds it once from the
 * values it parsed at start; the cluster code takes it and reads no key.
 */
public final class ZooKeeperSettings {
  private final String quorum;
  private final Duration sessionTimeout;
  private final Duration connectTimeout;
  private final ZooKeeperLayout layout;

  /** {@code quorum} empty means no ZooKeeper. */
  public ZooKeeperSettings(
      String quorum, Duration sessionTimeout, Duration connectTimeout, ZooKeeperLayout layout) {
    this.quorum = Objects.requireNonNull(quorum, "quorum cannot be null");
    this.sessionTimeout = Objects.requireNonNull(sessionTimeout, "sessionTimeout cannot be null");
    this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout cannot be null");
    this.layout = Objects.requireNonNull(layout, "layout cannot be null");
  }

  /** The settings of the {@code sponge.zookeeper.*} keys of {@code values}. */
  public static ZooKeeperSettings from(ConfigValues values) {
    return new ZooKeeperSettings(
        values.get(ClusterOptions.ZOOKEEPER_QUORUM),
        values.get(ClusterOptions.ZOOKEEPER_SESSION_TIMEOUT),
        values.get(ClusterOptions.ZOOKEEPER_CONNECT_TIMEOUT),
        new ZooKeeperLayout(values.get(ClusterOptions.ZOOKEEPER_ROOT)));
  }

  /** Whether a quorum is configured. */
  public boolean configured() {
    return !quorum.isEmpty();
  }

  /**
   * These settings, when a quorum is configured.
   *
   * @throws ConfigException naming {@code sponge.zookeeper.quorum} and {@code why} it is needed
   */
  public ZooKeeperSettings required(String why) {
    if (!configured()) {
      throw new ConfigException(ClusterOptions.ZOOKEEPER_QUORUM.key(), "(empty)", why);
    }
    return this;
  }

  /** The connect string ({@code zk1:2181,zk2:2181}); empty when none is configured. */
  public String quorum() {
    return quorum;
  }

  public Duration sessionTimeout() {
    return sessionTimeout;
  }

  /** How long to wait for a connection before reporting ZooKeeper unavailable. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** Where SpongeFiles keeps its nodes, under {@code sponge.zookeeper.root}. */
  public ZooKeeperLayout layout() {
    return layout;
  }

  @Override
  public String toString() {
    return ClusterOptions.ZOOKEEPER_QUORUM.key() + "=" + quorum;
  }
}
