package org.spongefiles.core.cluster;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.wire.FreeList;

/**
 * A task's last resort for finding servers when no tracker answers: the servers registered in
 * ZooKeeper. The connection is made only when needed. A task without ZooKeeper configured, or
 * without ZooKeeper's and Curator's classes (Hadoop's task classpath has none), has no fallback:
 * {@link #unavailable()} says why, and no ZooKeeper class is ever touched.
 */
final class RegistryFallback implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryFallback.class);

  private final ZooKeeperSettings zookeeper;
  private final boolean configured;
  private final String missingClass;
  private String problem;
  private CuratorFramework client;

  private RegistryFallback(ZooKeeperSettings zookeeper, String missingClass) {
    this.zookeeper = zookeeper;
    this.configured = zookeeper.configured();
    this.missingClass = missingClass;
  }

  static RegistryFallback of(ZooKeeperSettings zookeeper) {
    return new RegistryFallback(
        zookeeper,
        missingClass(
            "org.apache.zookeeper.ZooKeeper", "org.apache.curator.framework.CuratorFramework"));
  }

  /** The first of {@code names} this class's loader cannot find, or null. */
  static String missingClass(String... names) {
    for (String name : names) {
      try {
        Class.forName(name, false, RegistryFallback.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        return name;
      }
    }
    return null;
  }

  /** Whether the fallback cannot work for lack of classes (rather than configuration). */
  boolean classesMissing() {
    return configured && missingClass != null;
  }

  /** Why the last {@link #servers} gave nothing, naming the key or class; null if it did not. */
  synchronized String unavailable() {
    if (!configured) {
      return ClusterOptions.ZOOKEEPER_QUORUM.key() + " is empty, so there is no fallback";
    }
    if (missingClass != null) {
      return "the fallback to ZooKeeper ("
          + zookeeper
          + ") is skipped: "
          + missingClass
          + " is not on the task's classpath (Hadoop's has no ZooKeeper; add the zookeeper,"
          + " zookeeper-jute and curator jars from the distribution's lib/ to the job's"
          + " classpath to use it)";
    }
    return problem;
  }

  /** The rack's registered servers (free space unknown), or null when they cannot be read. */
  synchronized List<FreeList.Entry> servers(String rack) {
    problem = null;
    if (!configured || missingClass != null) {
      return null;
    }
    try {
      if (client == null) {
        client = ZooKeeperClients.start(zookeeper);
      }
      long wait = zookeeper.connectTimeout().toMillis();
      if (!client.blockUntilConnected((int) wait, TimeUnit.MILLISECONDS)) {
        problem = "ZooKeeper (" + zookeeper + ") is unreachable too";
        return null;
      }
      List<FreeList.Entry> entries = new ArrayList<>();
      for (ServerRegistration server : ServerRegistry.list(client, zookeeper.layout(), rack)) {
        entries.add(
            new FreeList.Entry(
                server.address().toString(), server.chunks(), server.chunks(), server.chunkSize()));
      }
      return entries;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      problem = "interrupted while reading ZooKeeper";
      return null;
    } catch (Exception | LinkageError e) {
      problem = "cannot read sponge servers from ZooKeeper (" + zookeeper + "): " + e;
      LOG.debug("Reading sponge servers from ZooKeeper failed", e);
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
