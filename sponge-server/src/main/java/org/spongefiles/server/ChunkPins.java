package org.spongefiles.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool chunks the server has I/O outstanding on: a READ reply that still sends a view of the
 * chunk, a WRITE whose data is still being received into it. A pinned chunk is never returned to
 * the pool: a FREE or a reclaim of it is deferred until the last unpin, and the chunk counts as
 * released at once (no client may pin it again), so bytes of a chunk's next owner never go out to
 * its previous one, and bytes of the previous one never land in the next one's chunk.
 *
 * <p>Releasing and pinning exclude each other: a pin taken before a release defers it; a pin
 * attempted after a release has returned the chunk to the pool is followed by an ownership check
 * that fails. So callers pin first, then check ownership.
 */
final class ChunkPins {
  private static final Logger LOG = LoggerFactory.getLogger(ChunkPins.class);

  /** Returns chunks to the pool; how many it returned. */
  interface Release<T> {
    int release(List<T> chunks) throws IOException;
  }

  private static final class Pin {
    int count;
    Runnable deferred;
  }

  private final Map<Integer, Pin> pins = new HashMap<>();

  /** Pins {@code chunk}; false when it is released already (waiting for its pins to go). */
  synchronized boolean pin(int chunk) {
    Pin pin = pins.computeIfAbsent(chunk, c -> new Pin());
    if (pin.deferred != null) {
      return false;
    }
    pin.count++;
    return true;
  }

  /** Drops one pin of {@code chunk}; the last one runs a release deferred meanwhile. */
  synchronized void unpin(int chunk) {
    Pin pin = pins.get(chunk);
    if (pin == null || pin.count == 0) {
      throw new IllegalStateException("chunk " + chunk + " is not pinned");
    }
    if (--pin.count > 0) {
      return;
    }
    pins.remove(chunk);
    if (pin.deferred != null) {
      pin.deferred.run();
    }
  }

  /** True while a release of {@code chunk} waits for its pins: it is gone for clients. */
  synchronized boolean isReleased(int chunk) {
    Pin pin = pins.get(chunk);
    return pin != null && pin.deferred != null;
  }

  /** How many chunks are pinned now. */
  synchronized int pinned() {
    return pins.size();
  }

  /**
   * Releases {@code chunks}: the unpinned ones at once with {@code now}, the pinned ones that pass
   * {@code releasable} at their last unpin (each with {@code now} again); chunks released already
   * are skipped.
   *
   * @return how many were released or deferred
   */
  synchronized <T> int release(
      Collection<T> chunks, ToIntFunction<T> index, Predicate<T> releasable, Release<T> now)
      throws IOException {
    List<T> unpinned = new ArrayList<>(chunks.size());
    int deferred = 0;
    for (T chunk : chunks) {
      int at = index.applyAsInt(chunk);
      Pin pin = pins.get(at);
      if (pin == null) {
        unpinned.add(chunk);
      } else if (pin.deferred == null && releasable.test(chunk)) {
        pin.deferred = () -> releaseLater(at, chunk, now);
        deferred++;
      }
    }
    return (unpinned.isEmpty() ? 0 : now.release(unpinned)) + deferred;
  }

  private static <T> void releaseLater(int at, T chunk, Release<T> now) {
    try {
      now.release(List.of(chunk));
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not release chunk {} after its last I/O: {}", at, e.toString());
    }
  }
}
