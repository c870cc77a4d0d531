package org.spongefiles.core.cluster;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigValues;

/** Curator clients configured from the {@code sponge.zookeeper.*} keys. */
public final class ZooKeeperClients {
  private ZooKeeperClients() {}

  /**
   * A started Curator client for {@code sponge.zookeeper.quorum}; it connects in the background.
   *
   * @throws ConfigException when no quorum is configured
   */
  public static CuratorFramework start(Configuration conf) {
    return start(ConfigValues.reading(conf));
  }

  /** {@link #start(Configuration)} from parsed values. */
  public static CuratorFramework start(ConfigValues conf) {
    String quorum = conf.get(ClusterOptions.ZOOKEEPER_QUORUM);
    if (quorum.isEmpty()) {
      throw new ConfigException(
          ClusterOptions.ZOOKEEPER_QUORUM.key(), "(empty)", "a ZooKeeper quorum is needed here");
    }
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(quorum)
            .sessionTimeoutMs((int) conf.get(ClusterOptions.ZOOKEEPER_SESSION_TIMEOUT).toMillis())
            .connectionTimeoutMs(
                (int) conf.get(ClusterOptions.ZOOKEEPER_CONNECT_TIMEOUT).toMillis())
            .retryPolicy(new ExponentialBackoffRetry(200, 5, 5_000))
            .build();
    client.start();
    return client;
  }
}
