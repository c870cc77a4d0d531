package org.spongefiles.core.cluster;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.spongefiles.core.config.ConfigException;

/** Curator clients configured from the parsed {@code sponge.zookeeper.*} keys. */
public final class ZooKeeperClients {
  private ZooKeeperClients() {}

  /**
   * A started Curator client for the quorum of {@code settings}; it connects in the background.
   *
   * @throws ConfigException when no quorum is configured
   */
  public static CuratorFramework start(ZooKeeperSettings settings) {
    settings.required("a ZooKeeper quorum is needed here");
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(settings.quorum())
            .sessionTimeoutMs((int) settings.sessionTimeout().toMillis())
            .connectionTimeoutMs((int) settings.connectTimeout().toMillis())
            .retryPolicy(new ExponentialBackoffRetry(200, 5, 5_000))
            .build();
    client.start();
    return client;
  }
}
