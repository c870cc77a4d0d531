package org.spongefiles.leaky;

/**
 * One key of a {@link LeakyHashTable} and its values. The values are deserialized one at a time,
 * into one object reused for the whole table, when iterated; iterate as often as needed, but copy a
 * value to keep it past the next one.
 */
public interface Group<K, V> {

  /** The table's copy of the key; do not modify it. */
  K key();

  /** Number of values. */
  int size();

  /**
   * Whether some of the values were moved to SpongeFiles: each iteration then reads them back, so a
   * caller that iterates many times should batch its iterations (as the join does).
   */
  boolean overflowed();

  /** The values in the order they were put. */
  Iterable<V> values();
}
