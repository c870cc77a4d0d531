package org.spongefiles.core.cluster;

import org.apache.curator.utils.ZKPaths;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ConfigValues;

/**
 * Where SpongeFiles keeps its ZooKeeper nodes.
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

  public static ZooKeeperLayout fromConfiguration(Configuration conf) {
    return from(ConfigValues.reading(conf));
  }

  /** The layout under the parsed {@code sponge.zookeeper.root}. */
  public static ZooKeeperLayout from(ConfigValues conf) {
    return new ZooKeeperLayout(conf.get(ClusterOptions.ZOOKEEPER_ROOT));
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
