package org.spongefiles.tracker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The leader's picture of every registered server after one poll round. Immutable. */
final class ClusterView {
  final List<ServerState> servers;
  final long completedAtMillis;
  final long roundNanos;

  ClusterView(List<ServerState> servers, long completedAtMillis, long roundNanos) {
    this.servers = List.copyOf(servers);
    this.completedAtMillis = completedAtMillis;
    this.roundNanos = roundNanos;
  }

  List<ServerState> rack(String rack) {
    List<ServerState> inRack = new ArrayList<>();
    for (ServerState server : servers) {
      if (server.rack().equals(rack)) {
        inRack.add(server);
      }
    }
    return inRack;
  }

  long upCount() {
    return servers.stream().filter(ServerState::isUp).count();
  }

  /** Free bytes per rack, over the servers that answered. */
  Map<String, Long> freeBytesByRack() {
    Map<String, Long> free = new TreeMap<>();
    for (ServerState server : servers) {
      free.merge(server.rack(), server.freeBytes(), Long::sum);
    }
    return free;
  }

  long ageMillis() {
    return System.currentTimeMillis() - completedAtMillis;
  }
}
