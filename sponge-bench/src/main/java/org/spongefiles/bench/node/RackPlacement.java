package org.spongefiles.bench.node;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.spongefiles.emulator.RackNetwork;
import org.spongefiles.emulator.RackServices;

/**
 * Puts a median run on node 1 of an emulated rack, as {@link NodePlacement} puts it on a node's
 * disk and in its container: the run's JVM in node 1's network namespace, and ours with a pool of
 * {@code poolBytes} spilling past it to node 2's sponge server over the shaped link, then to disk
 * (with or without {@code sponge.write.overflow}), with any other settings the sweep was given for
 * ours in the remote cells ({@code bench.node.remote.settings}).
 */
final class RackPlacement extends InNodePlacement {
  private final RackNetwork rack;
  private final RackServices services;
  private final long poolBytes;
  private final boolean overflow;
  private final Map<String, String> settings;

  RackPlacement(
      NodePlacement node,
      RackNetwork rack,
      RackServices services,
      long poolBytes,
      boolean overflow,
      Map<String, String> settings) {
    super(node);
    this.rack = rack;
    this.services = services;
    this.poolBytes = poolBytes;
    this.overflow = overflow;
    this.settings = settings;
  }

  /**
   * Settings for ours written {@code key=value;key=value} in property {@code property}, in order;
   * empty for an empty value.
   *
   * @throws IllegalArgumentException naming the property and the entry when one has no key or no
   *     '='
   */
  static Map<String, String> settings(String property, String value) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String entry : value.split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            property + "=" + value + ": entry '" + entry + "' is not key=value");
      }
      settings.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
    }
    return settings;
  }

  @Override
  public List<String> command(List<String> javaCommand) {
    // Into the container first: ip netns exec remounts /sys, so no cgroup tree is visible after it.
    return node.command(rack.inNode(1, javaCommand));
  }

  @Override
  public void prepare(Map<String, String> conf) throws IOException {
    if (conf.containsKey("sponge.pool.dir")) {
      conf.put("sponge.node.id", services.nodeId(1));
      conf.put("sponge.server.address", services.serverEndpoint(1));
      conf.put("sponge.pool.size", Long.toString(poolBytes));
      conf.put("sponge.tiers", "pool,remote,disk");
      conf.put("sponge.remote.servers", services.serverEndpoint(2));
      conf.put("sponge.write.overflow", Boolean.toString(overflow));
      conf.putAll(settings);
    }
    node.prepare(conf);
  }
}
