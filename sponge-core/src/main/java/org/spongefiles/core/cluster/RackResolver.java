package org.spongefiles.core.cluster;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A node's rack: {@code sponge.rack} when set, else what Hadoop's own topology mapping says ({@code
 * net.topology.node.switch.mapping.impl}: a script, a table or a custom class), so SpongeFiles and
 * HDFS agree on racks.
 */
public final class RackResolver {
  private RackResolver() {}

  public static String rackOf(Configuration conf, String host) {
    String explicit = ClusterOptions.RACK.get(conf);
    if (!explicit.isEmpty()) {
      return explicit;
    }
    DNSToSwitchMapping mapping =
        ReflectionUtils.newInstance(
            conf.getClass(
                CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
                ScriptBasedMapping.class,
                DNSToSwitchMapping.class),
            conf);
    List<String> racks = mapping.resolve(List.of(host));
    if (racks == null || racks.isEmpty() || racks.get(0) == null) {
      return NetworkTopology.DEFAULT_RACK;
    }
    return racks.get(0);
  }
}
