package org.spongefiles.core.cluster;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.wire.FreeList;

/**
 * A task's last resort for finding servers when no tracker answers: the servers registered in
 * ZooKeeper. The connection is made only when needed, and a task without ZooKeeper configured (or
 * without its classes) simply has no fallback.
 */
final class RegistryFallback implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryFallback.class);

  private final Configuration conf;
  private final boolean configured;
  private CuratorFramework client;

  private RegistryFallback(Configuration conf, boolean configured) {
    this.conf = conf;
    this.configured = configured;
  }

  static RegistryFallback of(Configuration conf) {
    return new RegistryFallback(conf, !ClusterOptions.ZOOKEEPER_QUORUM.get(conf).isEmpty());
  }

  /** The rack's registered servers (free space unknown), or null when they cannot be read. */
  synchronized List<FreeList.Entry> servers(String rack) {
    if (!configured) {
      return null;
    }
    try {
      if (client == null) {
        client = ZooKeeperClients.start(conf);
      }
      long wait = ClusterOptions.ZOOKEEPER_CONNECT_TIMEOUT.get(conf).toMillis();
      if (!client.blockUntilConnected((int) wait, TimeUnit.MILLISECONDS)) {
        LOG.warn(
            "ZooKeeper ({}) is unreachable too; spilling to disk",
            ClusterOptions.ZOOKEEPER_QUORUM.get(conf));
        return null;
      }
      List<FreeList.Entry> entries = new ArrayList<>();
      for (ServerRegistration server :
          ServerRegistry.list(client, ZooKeeperLayout.fromConfiguration(conf), rack)) {
        entries.add(
            new FreeList.Entry(
                server.address().toString(), server.chunks(), server.chunks(), server.chunkSize()));
      }
      return entries;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception | NoClassDefFoundError e) {
      LOG.warn("Cannot read sponge servers from ZooKeeper: {}", e.toString());
      return null;
    }
  }

  @Override
  public synchronized void close() {
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
