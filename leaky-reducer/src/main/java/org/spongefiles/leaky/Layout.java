package org.spongefiles.leaky;

/**
 * How a {@link LeakyHashTable} lays out value bytes (the two layouts of the Leaky Buffer paper,
 * sections IV-B and IV-C).
 */
public enum Layout {
  /**
   * Start shared and switch to per-key once the table has seen enough values to know its load
   * factor (values per key); see {@link LeakyOptions#AUTO_LOAD_FACTOR}.
   */
  AUTO,
  /**
   * One shared log of value bytes in fixed-size pages, and per key the addresses of its values:
   * little per-key overhead, for low load factors (joins, where a key has one or two values).
   */
  SHARED,
  /**
   * One growable byte array per key holding that key's values back to back: no per-value index and
   * each group read in one sequential sweep, for high load factors (group-by).
   */
  PER_KEY
}
