package org.spongefiles.emulator.cluster;

import java.util.ArrayList;
import java.util.List;

/** One node of an emulated cluster: its host name, network namespace, address and rack. */
public final class ClusterNode {
  public final String host;
  public final String namespace;
  public final String address;

  /** The rack number, from 1; 0 for the master, which is on the core. */
  public final int rack;

  ClusterNode(String host, String namespace, String address, int rack) {
    this.host = host;
    this.namespace = namespace;
    this.address = address;
    this.rack = rack;
  }

  /** The rack as the topology script prints it: {@code /rack-<r>}, the master's /default-rack. */
  public String rackName() {
    return rack == 0 ? "/default-rack" : "/rack-" + rack;
  }

  /**
   * {@code command} run on this node: in its network namespace (with its {@code /etc/hosts}) and a
   * UTS namespace of its own whose host name is {@link #host}.
   */
  public List<String> run(List<String> command) {
    List<String> wrapped =
        new ArrayList<>(
            List.of(
                "ip",
                "netns",
                "exec",
                namespace,
                "unshare",
                "--uts",
                "sh",
                "-c",
                "hostname \"$0\" && exec \"$@\"",
                host));
    wrapped.addAll(command);
    return wrapped;
  }

  @Override
  public String toString() {
    return host + " (" + address + ", " + rackName() + ")";
  }
}
