package org.spongefiles.leaky;

/**
 * Where a table's load factor is heading, for the automatic layout choice. The plain ratio of
 * values to keys seen so far underestimates it early on: while the first occurrences of a
 * group-by's keys are still arriving, most puts bring a new key even when each key will end up with
 * hundreds of values. So this measures the recent rate instead: puts per new key since the last
 * power-of-two mark at least half the values ago. A group-by that has seen most of its keys shows a
 * high rate long before its overall ratio is high; a join's build side keeps bringing new keys.
 */
final class LoadFactorEstimate {
  private long markValues;
  private long markKeys;
  private long nextMarkValues;
  private long nextMarkKeys;

  /** Called after each put with the running counts. */
  void observe(long values, long keys) {
    if (Long.bitCount(values) == 1) {
      markValues = nextMarkValues;
      markKeys = nextMarkKeys;
      nextMarkValues = values;
      nextMarkKeys = keys;
    }
  }

  /** Puts per new key over the recent window (values per key when there is no window yet). */
  double estimate(long values, long keys) {
    long puts = values - markValues;
    long newKeys = keys - markKeys;
    return puts / (double) Math.max(1, newKeys);
  }
}
