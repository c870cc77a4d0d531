package org.spongefiles.tracker;

import java.io.Closeable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ZooKeeperLayout;

/**
 * The sponge servers registered in ZooKeeper, kept current by a Curator cache (watches, not
 * polling) and decoded once per change, so the leader's periodic work costs ZooKeeper nothing and
 * grows with registrations that change, not with registered servers.
 */
final class ServerDirectory implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerDirectory.class);

  private final CuratorCache cache;
  private final String parent;
  private final Map<String, ServerRegistration> servers = new ConcurrentHashMap<>();
  private final Runnable changed;

  /**
   * @param changed called (on Curator's thread) after a server registered, changed or left
   */
  ServerDirectory(CuratorFramework client, ZooKeeperLayout layout, Runnable changed) {
    this.parent = layout.servers();
    this.changed = changed;
    this.cache = CuratorCache.build(client, parent);
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forCreatesAndChanges((before, node) -> put(node))
                .forDeletes(this::remove)
                .build());
    cache.start();
  }

  /** The registered servers by endpoint (host:port); a live, concurrent view. */
  Map<String, ServerRegistration> servers() {
    return servers;
  }

  private boolean isServer(ChildData node) {
    return parent.equals(ZKPaths.getPathAndNode(node.getPath()).getPath());
  }

  private void put(ChildData node) {
    if (!isServer(node)) {
      return;
    }
    try {
      ServerRegistration registration = ServerRegistration.decode(node.getData());
      servers.put(registration.address().toString(), registration);
      changed.run();
    } catch (IllegalArgumentException e) {
      LOG.warn("Ignoring ZooKeeper node {}: {}", node.getPath(), e.getMessage());
    }
  }

  private void remove(ChildData node) {
    if (isServer(node) && servers.remove(ZKPaths.getNodeFromPath(node.getPath())) != null) {
      changed.run();
    }
  }

  @Override
  public void close() {
    cache.close();
  }
}
