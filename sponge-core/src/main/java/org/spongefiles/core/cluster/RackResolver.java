package org.spongefiles.core.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.util.ReflectionUtils;
import org.spongefiles.core.config.ConfigValues;

/**
 * A node's rack: {@code sponge.rack} when set, else what Hadoop's own topology mapping says of the
 * node's host name ({@code net.topology.node.switch.mapping.impl}, by default the script of {@code
 * net.topology.script.file.name}), so SpongeFiles, HDFS and YARN agree on racks.
 */
public final class RackResolver {
  /** YARN sets it in every container: the host name its NodeManager registered with. */
  static final String NODE_MANAGER_HOST = "NM_HOST";

  private RackResolver() {}

  /** A resolved rack and how it was found, for messages. */
  public static final class Rack {
    private final String name;
    private final String origin;
    private final boolean known;

    Rack(String name, String origin, boolean known) {
      this.name = name;
      this.origin = origin;
      this.known = known;
    }

    public String name() {
      return name;
    }

    /** How the rack was found ("sponge.rack=/r1", "net.topology.script.file.name=... for h"). */
    public String origin() {
      return origin;
    }

    /** False when nothing named a rack and Hadoop's {@code /default-rack} stands in. */
    public boolean known() {
      return known;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** The rack name of {@code host}: the parsed {@code sponge.rack}, else Hadoop's mapping. */
  public static String rackOf(ConfigValues values, Configuration conf, String host) {
    return resolve(values, conf, host).name();
  }

  /**
   * The host name the topology mapping knows this node by (never {@code sponge.node.id}, a name the
   * mapping does not know): the NodeManager's host ({@code NM_HOST}) in a YARN container, else the
   * canonical name of the local host, as a NodeManager registers.
   */
  public static String thisHost() {
    String nodeManager = System.getenv(NODE_MANAGER_HOST);
    if (nodeManager != null && !nodeManager.isBlank()) {
      return nodeManager.trim();
    }
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /**
   * The rack of {@code host}: the parsed {@code sponge.rack}, else the topology mapping {@code
   * conf} configures.
   */
  public static Rack resolve(ConfigValues values, Configuration conf, String host) {
    String explicit = values.get(ClusterOptions.RACK);
    if (!explicit.isEmpty()) {
      return new Rack(explicit, ClusterOptions.RACK.key() + "=" + explicit, true);
    }
    Class<? extends DNSToSwitchMapping> type =
        conf.getClass(
            CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
            ScriptBasedMapping.class,
            DNSToSwitchMapping.class);
    String script =
        conf.getTrimmed(CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY);
    String mapping =
        type == ScriptBasedMapping.class
            ? CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY + "=" + script
            : CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY
                + "="
                + type.getName();
    if (type == ScriptBasedMapping.class && (script == null || script.isEmpty())) {
      return new Rack(
          NetworkTopology.DEFAULT_RACK,
          ClusterOptions.RACK.key()
              + " and "
              + CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY
              + " are not set, so host "
              + host
              + " is in Hadoop's "
              + NetworkTopology.DEFAULT_RACK,
          false);
    }
    DNSToSwitchMapping resolver = ReflectionUtils.newInstance(type, conf);
    List<String> racks = resolver.resolve(List.of(host));
    String rack = racks == null || racks.isEmpty() ? null : racks.get(0);
    if (rack == null || rack.isEmpty() || rack.equals(NetworkTopology.DEFAULT_RACK)) {
      return new Rack(
          NetworkTopology.DEFAULT_RACK,
          ClusterOptions.RACK.key()
              + " is empty and "
              + mapping
              + " gave no rack for host "
              + host
              + ", so it is in Hadoop's "
              + NetworkTopology.DEFAULT_RACK,
          false);
    }
    return new Rack(rack, mapping + " for host " + host, true);
  }
}
