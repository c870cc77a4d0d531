package org.spongefiles.tracker;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Racks that tasks asked for and no registered server is in: an empty or misspelt {@code
 * sponge.rack}, or a topology script that names racks differently on tasks' nodes and servers'
 * nodes. Each such rack is logged once (the first {@value #LOGGED_RACKS} names, so a stream of
 * different names cannot flood the log), with the racks the tracker does know.
 */
final class UnknownRacks {
  static final int LOGGED_RACKS = 64;

  private final Set<String> logged = ConcurrentHashMap.newKeySet();
  private final Consumer<String> warn;

  UnknownRacks(Consumer<String> warn) {
    this.warn = warn;
  }

  /** Records that {@code peer} asked for {@code rack}, which holds no server of {@code view}. */
  void asked(String rack, String peer, RackView view) {
    if (view.racks().isEmpty()) {
      return; // no server registered yet anywhere: nothing to compare the rack with
    }
    if (logged.size() < LOGGED_RACKS && logged.add(rack)) {
      warn.accept(
          "A task at "
              + peer
              + " asked for rack '"
              + rack
              + "', where no sponge server is registered (racks with servers: "
              + view.racks()
              + "); its tasks get no remote memory. Check sponge.rack and the topology script"
              + " (net.topology.script.file.name) on that node and on the servers' nodes");
    }
  }
}
