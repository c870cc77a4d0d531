package org.spongefiles.core.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.spongefiles.core.wire.FreeList;

/**
 * The order a rack's free list is handed to a task in, after R3S: put chunks where memory is most
 * available, and never steer a task onto a nearly full node while others are empty. Servers with
 * clear room come first in a random order weighted by their free space, so the most free is most
 * likely first but concurrent tasks do not all pile onto the same one; nearly full servers come
 * last, most free first; servers with nothing free are left out. The leading tracker orders the
 * lists it answers itself, and each sponge server orders the rack list the leader pushed to it.
 */
public final class RackOrder {
  private final double nearlyFull;

  /**
   * @param nearlyFull {@code sponge.tracker.nearly.full}: below this free fraction, listed last
   */
  public RackOrder(double nearlyFull) {
    this.nearlyFull = nearlyFull;
  }

  public List<FreeList.Entry> order(List<FreeList.Entry> rack, SplittableRandom random) {
    List<Keyed> roomy = new ArrayList<>();
    List<FreeList.Entry> crowded = new ArrayList<>();
    for (FreeList.Entry server : rack) {
      if (server.freeChunks <= 0) {
        continue;
      }
      if (server.freeChunks > nearlyFull * server.chunks) {
        // Efraimidis-Spirakis: sorting by u^(1/w) draws a permutation weighted by w.
        roomy.add(new Keyed(server, Math.pow(random.nextDouble(), 1.0 / server.freeChunks)));
      } else {
        crowded.add(server);
      }
    }
    roomy.sort(Comparator.comparingDouble((Keyed k) -> k.key).reversed());
    crowded.sort(Comparator.comparingInt((FreeList.Entry s) -> s.freeChunks).reversed());
    List<FreeList.Entry> order = new ArrayList<>(roomy.size() + crowded.size());
    for (Keyed keyed : roomy) {
      order.add(keyed.server);
    }
    order.addAll(crowded);
    return order;
  }

  private static final class Keyed {
    final FreeList.Entry server;
    final double key;

    Keyed(FreeList.Entry server, double key) {
      this.server = server;
      this.key = key;
    }
  }
}
