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

  /** The values in the order they were put. */
  Iterable<V> values();
}
