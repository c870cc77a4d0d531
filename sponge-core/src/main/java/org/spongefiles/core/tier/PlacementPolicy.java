package org.spongefiles.core.tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Says, per chunk, whether its writer copies it into the pool in place, queues it behind itself,
 * stores it inline, or overflows it to the local disk (see {@link Placement}). It decides from the
 * tier order and {@code sponge.write.overflow}, fixed when the task opens, and from the facts the
 * writer passes per chunk; it holds no state and touches nothing, so the streams ask and act.
 *
 * <p>The answers, in the order a writer asks:
 *
 * <ol>
 *   <li>starting a chunk: {@link #reservesInPlace()} (the pool is the first tier);
 *   <li>sealing it: {@link #atSeal} (in place, inline when closing with nothing behind, else
 *       behind);
 *   <li>going behind with every write-behind buffer taken: {@link #whenBuffersTaken()} (overflow,
 *       or wait);
 *   <li>closing with chunks still queued: {@link #queuedAtClose()} (overflow them, or wait).
 * </ol>
 */
public final class PlacementPolicy {
  private final List<TierKind> order;
  private final boolean reservesInPlace;
  private final boolean overflows;

  private PlacementPolicy(List<TierKind> order, boolean writeOverflow) {
    this.order = List.copyOf(order);
    this.reservesInPlace = !this.order.isEmpty() && this.order.get(0) == TierKind.POOL;
    this.overflows = writeOverflow && remoteBeforeDisk(this.order);
  }

  /**
   * The policy for tiers tried in {@code order} (nearest first) with {@code sponge.write.overflow}
   * set to {@code writeOverflow}.
   */
  public static PlacementPolicy of(List<TierKind> order, boolean writeOverflow) {
    Objects.requireNonNull(order, "order cannot be null");
    return new PlacementPolicy(order, writeOverflow);
  }

  /** The policy for {@code chain}'s tier order. */
  public static PlacementPolicy of(TierChain chain, boolean writeOverflow) {
    Objects.requireNonNull(chain, "chain cannot be null");
    List<TierKind> order = new ArrayList<>(chain.tiers().size());
    for (Tier tier : chain.tiers()) {
      order.add(tier.kind());
    }
    return new PlacementPolicy(order, writeOverflow);
  }

  /**
   * Whether a writer starting a chunk asks the chain for a pool chunk to fill in place ({@link
   * TierChain#reserveInPlace}): the pool is the first tier. With the pool later in the order (as in
   * {@code disk,pool}) the chunk goes through the chain like any other.
   */
  public boolean reservesInPlace() {
    return reservesInPlace;
  }

  /**
   * Whether writers overflow to the local disk rather than wait for a write-behind buffer: {@code
   * sponge.write.overflow} is on and the remote tier comes before the disk tier (a slow link must
   * not hold the writer back; with the disk first, or no remote tier, there is nothing to bypass).
   */
  public boolean overflows() {
    return overflows;
  }

  /**
   * Where a chunk goes when its writer seals it.
   *
   * @param inPlace the writer holds a pool chunk reserved for it
   * @param closing this is the file's last chunk: the writer is closing
   * @param fileIdle none of the file's chunks is queued or being stored behind the writer
   * @return {@link Placement#IN_PLACE} with a reserved pool chunk; {@link Placement#INLINE} for the
   *     last chunk of a file with nothing behind it (the closing writer would only wait for an I/O
   *     thread); otherwise {@link Placement#BEHIND}
   */
  public Placement atSeal(boolean inPlace, boolean closing, boolean fileIdle) {
    if (inPlace) {
      return Placement.IN_PLACE;
    }
    if (closing && fileIdle) {
      return Placement.INLINE;
    }
    return Placement.BEHIND;
  }

  /**
   * Where a chunk bound behind the writer goes when every write-behind buffer ({@code
   * sponge.write.buffers}) is taken: {@link Placement#OVERFLOW} when the policy {@link
   * #overflows()} (the writer still takes a buffer due back within {@code
   * sponge.write.overflow.wait} if one frees in that time), else {@link Placement#BEHIND} (the
   * writer waits for a buffer).
   */
  public Placement whenBuffersTaken() {
    return overflows ? Placement.OVERFLOW : Placement.BEHIND;
  }

  /**
   * Where the chunks still queued behind a closing writer (no I/O thread started their store) go:
   * {@link Placement#OVERFLOW} when the policy {@link #overflows()}, so the writer waits only for
   * the stores under way; else {@link Placement#BEHIND} (they stay queued and the writer waits).
   */
  public Placement queuedAtClose() {
    return overflows ? Placement.OVERFLOW : Placement.BEHIND;
  }

  @Override
  public String toString() {
    return "placement of "
        + order
        + (reservesInPlace ? ", in place in the pool" : "")
        + (overflows ? ", overflow to disk" : "");
  }

  private static boolean remoteBeforeDisk(List<TierKind> order) {
    int remote = order.indexOf(TierKind.REMOTE);
    int disk = order.indexOf(TierKind.DISK);
    return remote >= 0 && disk > remote;
  }
}
