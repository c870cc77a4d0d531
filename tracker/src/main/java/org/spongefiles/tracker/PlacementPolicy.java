package org.spongefiles.tracker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.spongefiles.core.wire.FreeList;

/**
 * The order a rack's free list is handed out in, after R3S: put chunks where memory is most
 * available, and never steer a task onto a nearly full node while others are empty. Servers with
 * clear room come first in a random order weighted by their free space, so the most free is most
 * likely first but concurrent tasks do not all pile onto the same one; nearly full servers come
 * last, most free first; servers that did not answer or have nothing free are left out.
 */
final class PlacementPolicy {
  private final double nearlyFull;

  PlacementPolicy(double nearlyFull) {
    this.nearlyFull = nearlyFull;
  }

  List<FreeList.Entry> order(List<ServerState> rack, SplittableRandom random) {
    List<Keyed> roomy = new ArrayList<>();
    List<ServerState> crowded = new ArrayList<>();
    for (ServerState server : rack) {
      if (!server.isUp() || server.stats.freeChunks <= 0) {
        continue;
      }
      if (server.stats.freeChunks > nearlyFull * server.stats.chunks) {
        // Efraimidis-Spirakis: sorting by u^(1/w) draws a permutation weighted by w.
        double key = Math.pow(random.nextDouble(), 1.0 / server.stats.freeChunks);
        roomy.add(new Keyed(server, key));
      } else {
        crowded.add(server);
      }
    }
    roomy.sort(Comparator.comparingDouble((Keyed k) -> k.key).reversed());
    crowded.sort(Comparator.comparingInt((ServerState s) -> s.stats.freeChunks).reversed());
    List<FreeList.Entry> order = new ArrayList<>(roomy.size() + crowded.size());
    for (Keyed keyed : roomy) {
      order.add(entry(keyed.server));
    }
    for (ServerState server : crowded) {
      order.add(entry(server));
    }
    return order;
  }

  private static FreeList.Entry entry(ServerState server) {
    return new FreeList.Entry(
        server.endpoint(), server.stats.freeChunks, server.stats.chunks, server.stats.chunkSize);
  }

  private static final class Keyed {
    final ServerState server;
    final double key;

    Keyed(ServerState server, double key) {
      this.server = server;
      this.key = key;
    }
  }
}
