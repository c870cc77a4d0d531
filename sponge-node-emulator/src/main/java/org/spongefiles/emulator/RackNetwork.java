package org.spongefiles.emulator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One rack of nodes as network namespaces: a switch namespace holding a bridge, and per node a
 * namespace whose {@code eth0} is one end of a veth pair whose other end is a bridge port. Both
 * directions of every link are shaped with htb to the link speed (node to switch on the node's
 * {@code eth0}, switch to node on the bridge port), so a node's traffic in and out is bounded as a
 * real NIC's would be. Node {@code n} (from 1) of rack {@code r} has {@code 10.233.<r>.<n>/24}; the
 * bridge itself has {@code 10.233.<r>.254/24}, so the rack's services (ZooKeeper, the memory
 * tracker) run in the switch namespace and reach every node through that node's shaped port.
 *
 * <p>Names: namespaces {@code spongebench-<pid>-rack<r>-switch} and {@code
 * spongebench-<pid>-rack<r>-node<n>}; interfaces live only inside them, so removing the namespaces
 * removes everything.
 */
public final class RackNetwork extends HostResource {
  /** htb's quantum: bytes a class sends per round, above a veth's largest (GSO) packet. */
  static final int QUANTUM = 60000;

  public final int rack;
  public final long bitsPerSecond;
  private final String switchNs;
  private final List<String> nodes = new ArrayList<>();

  private RackNetwork(int rack, long bitsPerSecond) {
    this.rack = rack;
    this.bitsPerSecond = bitsPerSecond;
    this.switchNs = Teardown.prefix() + "rack" + rack + "-switch";
  }

  /** Makes rack {@code rack} with {@code nodeCount} nodes on links of {@code bitsPerSecond}. */
  public static RackNetwork create(int rack, int nodeCount, long bitsPerSecond) throws IOException {
    if (rack < 1 || rack > 254 || nodeCount < 1 || nodeCount > 250) {
      throw new IllegalArgumentException(
          "rack : " + rack + ", nodes : " + nodeCount + " (expected: 1-254 and 1-250)");
    }
    RackNetwork network = new RackNetwork(rack, bitsPerSecond);
    network.open(() -> network.build(nodeCount));
    return network;
  }

  private void build(int nodeCount) throws IOException {
    HostCommand.run("ip", "netns", "add", switchNs);
    HostCommand.run("ip", "-n", switchNs, "link", "add", "name", "br0", "type", "bridge");
    HostCommand.run("ip", "-n", switchNs, "link", "set", "br0", "up");
    HostCommand.run("ip", "-n", switchNs, "addr", "add", switchAddress() + "/24", "dev", "br0");
    HostCommand.run("ip", "-n", switchNs, "link", "set", "lo", "up");
    for (int n = 1; n <= nodeCount; n++) {
      String node = Teardown.prefix() + "rack" + rack + "-node" + n;
      HostCommand.run("ip", "netns", "add", node);
      nodes.add(node);
      String port = "port" + n;
      HostCommand.run(
          "ip", "-n", switchNs, "link", "add", "name", port, "type", "veth", "peer", "name", "eth0",
          "netns", node);
      HostCommand.run("ip", "-n", switchNs, "link", "set", port, "master", "br0", "up");
      HostCommand.run("ip", "-n", node, "addr", "add", address(n) + "/24", "dev", "eth0");
      HostCommand.run("ip", "-n", node, "link", "set", "eth0", "up");
      HostCommand.run("ip", "-n", node, "link", "set", "lo", "up");
      shape(node, "eth0");
      shape(switchNs, port);
    }
  }

  private void shape(String namespace, String device) throws IOException {
    String rate = bitsPerSecond + "bit";
    HostCommand.run(
        "tc", "-n", namespace, "qdisc", "add", "dev", device, "root", "handle", "1:", "htb",
        "default", "10");
    HostCommand.run(
        "tc",
        "-n",
        namespace,
        "class",
        "add",
        "dev",
        device,
        "parent",
        "1:",
        "classid",
        "1:10",
        "htb",
        "rate",
        rate,
        "ceil",
        rate,
        "quantum",
        Integer.toString(QUANTUM));
  }

  /** The switch's namespace, which holds the bridge. */
  public String switchNamespace() {
    return switchNs;
  }

  /** The namespace of node {@code n} (from 1). */
  public String namespace(int n) {
    return nodes.get(n - 1);
  }

  public int nodeCount() {
    return nodes.size();
  }

  /** Node {@code n}'s address, {@code 10.233.<rack>.<n>}. */
  public String address(int n) {
    return String.format(Locale.ROOT, "10.233.%d.%d", rack, n);
  }

  /** The bridge's address in the switch namespace, {@code 10.233.<rack>.254}. */
  public String switchAddress() {
    return String.format(Locale.ROOT, "10.233.%d.254", rack);
  }

  /** {@code command} made to run inside the switch namespace (the rack's services). */
  public List<String> inSwitch(List<String> command) {
    List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", switchNs));
    wrapped.addAll(command);
    return wrapped;
  }

  /** {@code command} made to run inside node {@code n}'s namespace. */
  public List<String> inNode(int n, List<String> command) {
    List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", namespace(n)));
    wrapped.addAll(command);
    return wrapped;
  }

  /** The namespaces that make the rack: the switch first. */
  public List<String> namespaces() {
    List<String> all = new ArrayList<>(List.of(switchNs));
    all.addAll(nodes);
    return all;
  }

  /**
   * Kills every process in {@code namespace} and waits for each to end; returns their pids. A
   * namespace deleted while processes run in it lives on unnamed, and they with it.
   */
  public static List<Long> killProcesses(String namespace) throws IOException {
    List<Long> killed = new ArrayList<>();
    for (String pid : HostCommand.attempt("ip", "netns", "pids", namespace).output.split("\\s+")) {
      if (pid.matches("\\d+")) {
        long id = Long.parseLong(pid);
        ProcessHandle.of(id)
            .ifPresent(
                process -> {
                  process.destroyForcibly();
                  process.onExit().join();
                });
        killed.add(id);
      }
    }
    return killed;
  }

  /**
   * Kills what still runs in the rack, then removes the namespaces (and with them every interface
   * and qdisc of the rack).
   */
  @Override
  protected void release() throws IOException {
    IOException failure = null;
    List<String> all = namespaces();
    for (String namespace : all) {
      killProcesses(namespace);
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
