package org.spongefiles.leaky;

import java.io.Closeable;
import java.io.IOException;

/**
 * Where a table keeps its value bytes, by key slot: one of the two layouts. Stores account for the
 * heap they hold and move value bytes to the overflow on request.
 */
interface ValueStore extends Closeable {

  /** Appends one value's bytes to the values of {@code slot}. */
  void append(int slot, byte[] bytes, int offset, int length) throws IOException;

  /**
   * Heap bytes appending a value of {@code length} bytes to {@code slot} would allocate (new pages
   * or arrays and index growth), so the table can check its budget before the allocation.
   */
  long growth(int slot, int length);

  /** Number of values of {@code slot} (0 for a slot never appended to). */
  int count(int slot);

  /** Whether some values of {@code slot} were moved to the overflow. */
  boolean overflowed(int slot);

  /** Reads the values of {@code slot} in the order they were appended. */
  Cursor cursor(int slot);

  /** Heap bytes held: value bytes in memory and the structures indexing them. */
  long heapBytes();

  /**
   * Bytes of the structures indexing the values, on the heap or moved to the overflow with them:
   * what the layout spends beyond the value bytes.
   */
  long indexBytes();

  /** The largest value array this store has allocated, in bytes. */
  int largestArray();

  /** Moves at least {@code bytes} of value bytes to the overflow if it can; returns bytes freed. */
  long spill(long bytes) throws IOException;

  /** Forgets every value (and deletes the overflow files); slots start again from empty. */
  void clear() throws IOException;

  /** The layout this store implements. */
  Layout layout();

  /** Reads the values of one slot, each into a {@link ByteView}. */
  interface Cursor {
    /** Points {@code view} at the next value; false when there is none. */
    boolean next(ByteView view) throws IOException;
  }
}
