package org.spongefiles.bag;

import org.spongefiles.bag.filler.PigFillers;
import org.spongefiles.bag.filler.SelfSpill;
import org.spongefiles.bag.task.BagMemory;
import org.spongefiles.bag.task.BagTask;

/**
 * One bag's self-spill limit: its part of what the bags' share of the heap leaves for tuples once
 * the bags' readers and writers are counted ({@link BagMemory#tupleShare()}), the part decided by
 * the task's {@link SelfSpill} rule the first time the bag grows past the smallest limit a bag can
 * have (a third), and kept until the bag is cleared. After a self-spill failed, the bag retries
 * only once it holds twice what it held then. Guarded by the bag's lock.
 */
final class SelfSpillLimit {
  /** {@link #sharers} before the bag first grows past the smallest self-spill limit. */
  private static final int UNDECIDED = -1;

  private final BagMemory memory;
  private final SelfSpill rule;
  private int sharers = UNDECIDED;
  private int parts = UNDECIDED;
  private long retryAbove;

  SelfSpillLimit(BagTask task) {
    this.memory = task.memory();
    this.rule = task.settings().selfSpill();
  }

  /**
   * Whether a bag holding an estimated {@code estimate} bytes is past its limit (or past the retry
   * point). The first time it is past the smallest limit, the rule decides its part from who fills
   * it ({@code ofKind}: the part of the bag's kind, for {@link SelfSpill#ALWAYS}); a GROUP's,
   * COGROUP's or JOIN's bag has at most {@code 1/inputs} of the share, {@code inputs} being the
   * bags made together with it (see {@link Siblings}), as stock Pig gives each of a packager's bags
   * {@code 1/numInputs} (whether it was found to be one: {@link #isGroup()}, once {@link
   * #isDecided()}).
   */
  boolean exceeded(long estimate, int ofKind, int inputs) {
    if (withinSmallest(memory, estimate, inputs) || estimate <= retryAbove) {
      return false;
    }
    long tuples = memory.tupleShare();
    if (sharers == UNDECIDED) {
      sharers = rule.sharers(ofKind);
      parts = PigFillers.isGroup(sharers) ? Math.max(sharers, inputs) : sharers;
    }
    return sharers != PigFillers.NONE && estimate > Math.max(tuples / parts, retryAbove);
  }

  /**
   * Whether a bag of {@code inputs} made together, holding an estimated {@code estimate} bytes, is
   * within the smallest limit a bag can have in {@code memory} (a third, or 1/inputs of a
   * packager's many bags), or there is no limit: it cannot be past its own, whatever its filler.
   */
  static boolean withinSmallest(BagMemory memory, long estimate, int inputs) {
    return memory.share() == 0
        || estimate <= memory.tupleShare() / Math.max(PigFillers.NESTED, inputs);
  }

  /**
   * Estimated bytes past which the bag spills itself; 0 when it waits for Pig's memory manager (no
   * share, or a bag the rule leaves to it). Before the bag's part is decided, the part of its kind
   * ({@code ofKind}) is answered.
   */
  long bytes(int ofKind) {
    int of = sharers == UNDECIDED ? ofKind : parts;
    return memory.share() == 0 || of == PigFillers.NONE ? 0 : memory.tupleShare() / of;
  }

  /** Whether the rule decided the bag's part (it grew past the smallest limit since cleared). */
  boolean isDecided() {
    return sharers != UNDECIDED;
  }

  /** Whether the bag was found to be a GROUP's, COGROUP's or JOIN's. */
  boolean isGroup() {
    return PigFillers.isGroup(sharers);
  }

  /** The bag spilled: it may spill itself again at its limit. */
  void spilled() {
    retryAbove = 0;
  }

  /** A self-spill of a bag holding {@code estimate} bytes failed: retry at twice that. */
  void failed(long estimate) {
    retryAbove = 2 * estimate;
  }

  /** The bag was cleared: its filler is looked up again. */
  void reset() {
    sharers = UNDECIDED;
    parts = UNDECIDED;
    retryAbove = 0;
  }
}
