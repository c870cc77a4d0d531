package org.spongefiles.bag.task;

import java.util.Objects;
import org.spongefiles.bag.filler.SelfSpill;
import org.spongefiles.core.config.ParsedConfig;

/**
 * The bags' settings of one task, parsed once from its configuration where the keys are declared
 * ({@code org.spongefiles.bag.PigBagOptions#settings}): this layer takes values, never keys.
 */
public final class BagSettings {
  private final double memoryFraction;
  private final int readBuffer;
  private final int mergeFanIn;
  private final SelfSpill selfSpill;
  private final ParsedConfig spongeValues;

  /**
   * {@code memoryFraction} of the heap the bags share ({@code sponge.pig.bag.memory}), each run
   * reader's {@code readBuffer}, the {@code mergeFanIn} of sorted and distinct bags and the {@code
   * selfSpill} rule; {@code spongeValues} are the task's sponge-core values, parsed with these by
   * {@link org.spongefiles.core.SpongeTask#parse}, which its SpongeFiles are opened with.
   */
  public BagSettings(
      double memoryFraction,
      int readBuffer,
      int mergeFanIn,
      SelfSpill selfSpill,
      ParsedConfig spongeValues) {
    if (memoryFraction < 0 || memoryFraction >= 1) {
      throw new IllegalArgumentException(
          "memoryFraction : " + memoryFraction + " (expected: >= 0 and < 1)");
    }
    if (readBuffer <= 0) {
      throw new IllegalArgumentException("readBuffer : " + readBuffer + " (expected: > 0)");
    }
    if (mergeFanIn < 2) {
      throw new IllegalArgumentException("mergeFanIn : " + mergeFanIn + " (expected: >= 2)");
    }
    this.memoryFraction = memoryFraction;
    this.readBuffer = readBuffer;
    this.mergeFanIn = mergeFanIn;
    this.selfSpill = Objects.requireNonNull(selfSpill, "selfSpill cannot be null");
    this.spongeValues = Objects.requireNonNull(spongeValues, "spongeValues cannot be null");
  }

  /** Fraction of the heap the bags share; 0 leaves spilling to Pig's memory manager. */
  public double memoryFraction() {
    return memoryFraction;
  }

  /** Bytes each run reader buffers (less when a merge opens many). */
  public int readBuffer() {
    return readBuffer;
  }

  /** Most runs a sorted or distinct bag merges at once. */
  public int mergeFanIn() {
    return mergeFanIn;
  }

  /** Which bags spill themselves. */
  public SelfSpill selfSpill() {
    return selfSpill;
  }

  /** The task's sponge-core values, parsed once: its SpongeFiles are opened with them. */
  public ParsedConfig spongeValues() {
    return spongeValues;
  }
}
