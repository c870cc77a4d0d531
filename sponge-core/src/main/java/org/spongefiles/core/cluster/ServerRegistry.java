package org.spongefiles.core.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry of running sponge servers in ZooKeeper: each server keeps an ephemeral node (a
 * Curator {@link PersistentNode}, which recreates it after a lost session), so a crashed server
 * leaves the registry when its session expires.
 */
public final class ServerRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(ServerRegistry.class);

  private ServerRegistry() {}

  /** Registers a server; closing the returned node unregisters it. */
  public static Closeable register(
      CuratorFramework client, ZooKeeperLayout layout, ServerRegistration registration) {
    PersistentNode node =
        new PersistentNode(
            client,
            CreateMode.EPHEMERAL,
            false,
            layout.server(registration.address().toString()),
            registration.encode());
    node.start();
    return node;
  }

  /**
   * The servers registered now, optionally only those of {@code rack} (null for all). Nodes whose
   * data is not a registration are skipped with a warning.
   */
  public static List<ServerRegistration> list(
      CuratorFramework client, ZooKeeperLayout layout, String rack) throws IOException {
    List<ServerRegistration> servers = new ArrayList<>();
    try {
      for (String child : client.getChildren().forPath(layout.servers())) {
        byte[] data;
        try {
          data = client.getData().forPath(layout.server(child));
        } catch (KeeperException.NoNodeException gone) {
          continue;
        }
        try {
          ServerRegistration registration = ServerRegistration.decode(data);
          if (rack == null || rack.equals(registration.rack())) {
            servers.add(registration);
          }
        } catch (IllegalArgumentException e) {
          LOG.warn("Ignoring ZooKeeper node {}: {}", layout.server(child), e.getMessage());
        }
      }
      return servers;
    } catch (KeeperException.NoNodeException e) {
      return servers;
    } catch (Exception e) {
      throw new IOException("Cannot list sponge servers in ZooKeeper: " + e.getMessage(), e);
    }
  }
}
