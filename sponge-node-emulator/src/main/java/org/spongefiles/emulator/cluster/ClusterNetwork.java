package org.spongefiles.emulator.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.spongefiles.emulator.HostCommand;
import org.spongefiles.emulator.HostResource;
import org.spongefiles.emulator.RackNetwork;
import org.spongefiles.emulator.StaleResources;
import org.spongefiles.emulator.Teardown;

/**
 * The network of an emulated cluster: {@link RackNetwork}s (shaped links, a switch namespace each)
 * joined by routing through a core namespace, and a master node on the core. Each rack's switch is
 * its nodes' gateway ({@code 10.233.<r>.254}) and reaches the core over an uplink ({@code
 * 10.234.<r>.2} to {@code 10.234.<r>.1}); the master has {@code 10.233.0.1}, its gateway the core's
 * {@code 10.233.0.254}. The core and the switches forward (their own {@code ip_forward}).
 *
 * <p>Names: the master's host name is {@code master}, node {@code n} of rack {@code r} is {@code
 * rack<r>-node<n>}; every node namespace gets an {@code /etc/netns/<namespace>/hosts} naming every
 * node, which {@code ip netns exec} mounts over {@code /etc/hosts} for what runs there. Closing
 * removes the namespaces and those {@code /etc/netns} directories.
 */
public final class ClusterNetwork extends HostResource {
  static final Path NETNS_ETC = Path.of("/etc/netns");
  public static final String MASTER = "master";

  private final List<RackNetwork> racks = new ArrayList<>();
  private final List<ClusterNode> workers = new ArrayList<>();
  private final List<String> namespaces = new ArrayList<>();
  private final List<Path> etc = new ArrayList<>();
  private final String core = Teardown.prefix() + "core";
  private ClusterNode master;

  private ClusterNetwork() {}

  /** Makes {@code rackCount} racks of {@code perRack} workers on links of {@code bitsPerSecond}. */
  public static ClusterNetwork create(int rackCount, int perRack, long bitsPerSecond)
      throws IOException {
    if (rackCount < 1 || rackCount > 200) {
      throw new IllegalArgumentException("racks : " + rackCount + " (expected: 1-200)");
    }
    ClusterNetwork network = new ClusterNetwork();
    network.open(() -> network.build(rackCount, perRack, bitsPerSecond));
    return network;
  }

  private void build(int rackCount, int perRack, long bitsPerSecond) throws IOException {
    HostCommand.run("ip", "netns", "add", core);
    namespaces.add(core);
    HostCommand.run("ip", "-n", core, "link", "set", "lo", "up");
    forward(core);
    String masterNs = Teardown.prefix() + MASTER;
    HostCommand.run("ip", "netns", "add", masterNs);
    namespaces.add(masterNs);
    link(core, "port0", "10.233.0.254", masterNs, "eth0", "10.233.0.1");
    HostCommand.run("ip", "-n", masterNs, "link", "set", "lo", "up");
    HostCommand.run("ip", "-n", masterNs, "route", "add", "default", "via", "10.233.0.254");
    master = new ClusterNode(MASTER, masterNs, "10.233.0.1", 0);
    for (int r = 1; r <= rackCount; r++) {
      RackNetwork rack = RackNetwork.create(r, perRack, bitsPerSecond);
      racks.add(rack);
      String coreSide = String.format(Locale.ROOT, "10.234.%d.1", r);
      String switchSide = String.format(Locale.ROOT, "10.234.%d.2", r);
      link(core, "uplink" + r, coreSide, rack.switchNamespace(), "uplink", switchSide);
      forward(rack.switchNamespace());
      HostCommand.run(
          "ip", "-n", rack.switchNamespace(), "route", "add", "default", "via", coreSide);
      HostCommand.run(
          "ip",
          "-n",
          core,
          "route",
          "add",
          String.format(Locale.ROOT, "10.233.%d.0/24", r),
          "via",
          switchSide);
      for (int n = 1; n <= perRack; n++) {
        HostCommand.run(
            "ip", "-n", rack.namespace(n), "route", "add", "default", "via", rack.switchAddress());
        workers.add(
            new ClusterNode("rack" + r + "-node" + n, rack.namespace(n), rack.address(n), r));
      }
    }
    StringBuilder hosts = new StringBuilder("127.0.0.1 localhost\n");
    for (ClusterNode node : nodes()) {
      hosts.append(node.address).append(' ').append(node.host).append('\n');
    }
    for (ClusterNode node : nodes()) {
      Path dir = NETNS_ETC.resolve(node.namespace);
      Files.createDirectories(dir);
      etc.add(dir);
      Files.writeString(dir.resolve("hosts"), hosts.toString());
    }
  }

  /** A veth pair from {@code a} to {@code b}, each end up with its /24 address. */
  private static void link(
      String a, String aName, String aAddress, String b, String bName, String bAddress)
      throws IOException {
    HostCommand.run(
        "ip", "-n", a, "link", "add", "name", aName, "type", "veth", "peer", "name", bName, "netns",
        b);
    HostCommand.run("ip", "-n", a, "addr", "add", aAddress + "/24", "dev", aName);
    HostCommand.run("ip", "-n", a, "link", "set", aName, "up");
    HostCommand.run("ip", "-n", b, "addr", "add", bAddress + "/24", "dev", bName);
    HostCommand.run("ip", "-n", b, "link", "set", bName, "up");
  }

  private static void forward(String namespace) throws IOException {
    HostCommand.run("ip", "netns", "exec", namespace, "sysctl", "-qw", "net.ipv4.ip_forward=1");
  }

  public ClusterNode master() {
    return master;
  }

  /** The workers, rack by rack. */
  public List<ClusterNode> workers() {
    return workers;
  }

  /** The master, then the workers. */
  public List<ClusterNode> nodes() {
    List<ClusterNode> all = new ArrayList<>(List.of(master));
    all.addAll(workers);
    return all;
  }

  /** Every namespace of the cluster: the core, the master, each rack's switch and nodes. */
  public List<String> namespaces() {
    List<String> all = new ArrayList<>(namespaces);
    racks.forEach(rack -> all.addAll(rack.namespaces()));
    return all;
  }

  /**
   * Kills every process left in the cluster's namespaces (daemons, and the containers YARN started
   * in their own sessions); returns how many.
   */
  public int killProcesses() throws IOException {
    int killed = 0;
    for (String namespace : namespaces()) {
      killed += RackNetwork.killProcesses(namespace).size();
    }
    return killed;
  }

  @Override
  protected void release() throws IOException {
    IOException failure = null;
    try {
      killProcesses();
    } catch (IOException e) {
      failure = e;
    }
    for (Path dir : etc) {
      try {
        StaleResources.deleteTree(dir);
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    for (RackNetwork rack : racks) {
      try {
        rack.close();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    for (String namespace : namespaces) {
      HostCommand.Outcome outcome = HostCommand.attempt("ip", "netns", "del", namespace);
      if (!outcome.ok() && !outcome.output.contains("No such file") && failure == null) {
        failure = new IOException("ip netns del " + namespace + ": " + outcome.output.trim());
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
