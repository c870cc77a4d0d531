package org.spongefiles.tracker;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.spongefiles.core.wire.FreeList;

/**
 * The leader's rack lists as of its last tick, and how many registered servers report: what it
 * answers tasks with and what its metrics show. Immutable.
 */
final class RackView {
  static final RackView EMPTY = new RackView(Map.of(), 0, 0);

  private final Map<String, List<FreeList.Entry>> racks;
  final int registered;
  final int reporting;

  RackView(Map<String, List<FreeList.Entry>> racks, int registered, int reporting) {
    this.racks = Map.copyOf(racks);
    this.registered = registered;
    this.reporting = reporting;
  }

  /**
   * The reporting servers of {@code rack}, unordered; empty for a rack the leader knows nothing of.
   */
  List<FreeList.Entry> rack(String rack) {
    return racks.getOrDefault(rack, List.of());
  }

  /** Racks with at least one reporting server, for messages. */
  List<String> racks() {
    return racks.entrySet().stream()
        .filter(e -> !e.getValue().isEmpty())
        .map(Map.Entry::getKey)
        .sorted()
        .collect(java.util.stream.Collectors.toList());
  }

  /** Free bytes per rack, over the servers that report. */
  Map<String, Long> freeBytesByRack() {
    Map<String, Long> free = new TreeMap<>();
    for (Map.Entry<String, List<FreeList.Entry>> rack : racks.entrySet()) {
      long bytes = 0;
      for (FreeList.Entry server : rack.getValue()) {
        bytes += (long) server.freeChunks * server.chunkSize;
      }
      free.put(rack.getKey(), bytes);
    }
    return free;
  }
}
