package org.spongefiles.core.cluster;

import org.apache.curator.utils.ZKPaths;

/**
 * Where SpongeFiles keeps its ZooKeeper nodes, under {@code sponge.zookeeper.root} ({@link
 * ZooKeeperSettings#layout}).
 *
 * <pre>
 * &lt;root&gt;/servers/&lt;host:port&gt;   ephemeral, one per running sponge server, data: {@link ServerRegistration}
 * &lt;root&gt;/tracker/leader         the trackers' LeaderLatch; participant id = tracker host:port
 * </pre>
 */
public final class ZooKeeperLayout {
  private final String root;

  public ZooKeeperLayout(String root) {
    this.root =
        root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
  }

  public String servers() {
    return ZKPaths.makePath(root, "servers");
  }

  public String server(String endpoint) {
    return ZKPaths.makePath(servers(), endpoint);
  }

  public String leaderLatch() {
    return ZKPaths.makePath(root, "tracker", "leader");
  }
}
