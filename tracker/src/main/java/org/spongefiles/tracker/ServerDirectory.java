package org.spongefiles.tracker;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ZooKeeperLayout;

/**
 * The sponge servers registered in ZooKeeper, kept current by a Curator cache (watches, not
 * polling), so a poll round costs ZooKeeper nothing.
 */
final class ServerDirectory implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerDirectory.class);

  private final CuratorCache cache;
  private final String parent;

  ServerDirectory(CuratorFramework client, ZooKeeperLayout layout) {
    this.parent = layout.servers();
    this.cache = CuratorCache.build(client, parent);
    cache.start();
  }

  List<ServerRegistration> servers() {
    List<ServerRegistration> servers = new ArrayList<>();
    cache.stream()
        .filter(node -> parent.equals(ZKPaths.getPathAndNode(node.getPath()).getPath()))
        .forEach(node -> add(servers, node));
    return servers;
  }

  private static void add(List<ServerRegistration> servers, ChildData node) {
    try {
      servers.add(ServerRegistration.decode(node.getData()));
    } catch (IllegalArgumentException e) {
      LOG.warn("Ignoring ZooKeeper node {}: {}", node.getPath(), e.getMessage());
    }
  }

  @Override
  public void close() {
    cache.close();
  }
}
