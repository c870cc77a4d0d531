package org.spongefiles.core.tier;

/**
 * Where a sealed chunk is written, as {@link PlacementPolicy} answers it: which thread stores it
 * and through what. The tier it lands in is still the {@link TierChain}'s call, except for {@link
 * #IN_PLACE} (the pool) and {@link #OVERFLOW} (the local disk).
 */
public enum Placement {
  /** The writer copies its full buffer into the pool chunk the chain reserved for it. */
  IN_PLACE,
  /**
   * Queued for the task's I/O threads, which store it through the chain; the writer waits for a
   * free write-behind buffer when every one is taken.
   */
  BEHIND,
  /** Stored through the chain in the writer's own thread. */
  INLINE,
  /**
   * Stored on the local disk tier alone, in the writer's own thread ({@code
   * sponge.write.overflow}). When the disk has no room or fails, the writer stores the chunk the
   * way that keeps its bytes: a chunk being sealed waits for a write-behind buffer and goes behind;
   * a chunk taken back from the queue at close goes through the chain inline.
   */
  OVERFLOW
}
