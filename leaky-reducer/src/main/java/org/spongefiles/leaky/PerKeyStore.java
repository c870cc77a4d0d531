package org.spongefiles.leaky;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.io.IOException;
import java.util.Arrays;

/**
 * The per-key layout (paper, section IV-C): each key's values back to back in its own growable
 * array of records {@code [varint length][bytes]}, with no per-value index. A spill moves the
 * largest arrays whole into one overflow file and remembers, per key, the extents it moved; a key's
 * values are read back as its extents in order, then its array.
 */
final class PerKeyStore implements ValueStore {
  /** A growable array's object and array headers, roughly. */
  private static final int ARRAY_OVERHEAD = 32;

  private final Overflow overflow;
  private final ObjectArrayList<byte[]> arrays = new ObjectArrayList<>();
  private final IntArrayList used = new IntArrayList();
  private final IntArrayList counts = new IntArrayList();

  /** Per slot, pairs (location, length) of extents moved to the overflow; null when none. */
  private final ObjectArrayList<LongArrayList> extents = new ObjectArrayList<>();

  private final byte[] header = new byte[Varint.MAX_BYTES];
  private long heapBytes;

  PerKeyStore(Overflow overflow) {
    this.overflow = overflow;
  }

  @Override
  public void append(int slot, byte[] bytes, int offset, int length) {
    while (arrays.size() <= slot) {
      arrays.add(null);
      used.add(0);
      counts.add(0);
      extents.add(null);
      heapBytes += 8 + 4 + 4 + 8;
    }
    int n = Varint.write(length, header, 0);
    byte[] array = ensure(slot, n + length);
    int at = used.getInt(slot);
    System.arraycopy(header, 0, array, at, n);
    System.arraycopy(bytes, offset, array, at + n, length);
    used.set(slot, at + n + length);
    counts.set(slot, counts.getInt(slot) + 1);
  }

  /** Doubles a key's array as needed (the paper's double-and-copy growth). */
  private byte[] ensure(int slot, int more) {
    byte[] array = arrays.get(slot);
    long need = (long) used.getInt(slot) + more;
    if (need > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException(
          "values of one key pass 2 GiB in memory; lower sponge.leaky.budget so they spill");
    }
    if (array == null || array.length < need) {
      int capacity = array == null ? Math.max(64, (int) need) : array.length;
      while (capacity < need) {
        capacity = (int) Math.min(Integer.MAX_VALUE - 16, capacity * 2L);
      }
      byte[] grown = array == null ? new byte[capacity] : Arrays.copyOf(array, capacity);
      heapBytes += capacity - (array == null ? -ARRAY_OVERHEAD : array.length);
      arrays.set(slot, grown);
      array = grown;
    }
    return array;
  }

  @Override
  public int count(int slot) {
    return slot < counts.size() ? counts.getInt(slot) : 0;
  }

  @Override
  public Cursor cursor(int slot) {
    if (count(slot) == 0) {
      return view -> false;
    }
    return new KeyCursor(slot);
  }

  @Override
  public long heapBytes() {
    return heapBytes;
  }

  /**
   * Moves the largest arrays, biggest first, into one overflow file until enough is freed. The
   * arrays are dropped only once the file is committed: when it fails they stay on the heap.
   */
  @Override
  public long spill(long bytes) throws IOException {
    int[] slots = new int[arrays.size()];
    int candidates = 0;
    for (int slot = 0; slot < arrays.size(); slot++) {
      if (used.getInt(slot) > 0) {
        slots[candidates++] = slot;
      }
    }
    if (candidates == 0) {
      return 0;
    }
    IntArrays.quickSort(
        slots, 0, candidates, (a, b) -> Integer.compare(used.getInt(b), used.getInt(a)));
    int chosen = 0;
    long[] locations = new long[candidates];
    try (Overflow.Writer writer = overflow.begin()) {
      for (long freeing = 0; chosen < candidates && freeing < bytes; chosen++) {
        byte[] array = arrays.get(slots[chosen]);
        locations[chosen] = writer.write(array, 0, used.getInt(slots[chosen]));
        freeing += array.length;
      }
      writer.commit();
    }
    long freed = 0;
    for (int i = 0; i < chosen; i++) {
      freed += moved(slots[i], locations[i]);
    }
    return freed;
  }

  /** Records that the values of {@code slot} in memory are now at {@code location}; frees them. */
  private long moved(int slot, long location) {
    LongArrayList moved = extents.get(slot);
    if (moved == null) {
      moved = new LongArrayList(2);
      extents.set(slot, moved);
      heapBytes += ARRAY_OVERHEAD + 16;
    }
    moved.add(location);
    moved.add(used.getInt(slot));
    byte[] array = arrays.get(slot);
    arrays.set(slot, null);
    used.set(slot, 0);
    heapBytes -= array.length + ARRAY_OVERHEAD;
    return array.length;
  }

  @Override
  public void clear() throws IOException {
    arrays.clear();
    used.clear();
    counts.clear();
    extents.clear();
    heapBytes = 0;
    overflow.clear();
  }

  @Override
  public Layout layout() {
    return Layout.PER_KEY;
  }

  @Override
  public void close() {
    arrays.clear();
    extents.clear();
  }

  /** The values of one key: its moved extents, read through the overflow, then its array. */
  private final class KeyCursor implements Cursor {
    private final int slot;
    private final LongArrayList moved;
    private int extent;
    private long extentAt;
    private int inMemoryAt;
    private final byte[] lengthBytes = new byte[Varint.MAX_BYTES];
    private byte[] scratch = new byte[256];

    KeyCursor(int slot) {
      this.slot = slot;
      this.moved = extents.get(slot);
    }

    @Override
    public boolean next(ByteView view) throws IOException {
      while (moved != null && extent < moved.size()) {
        long location = moved.getLong(extent);
        long length = moved.getLong(extent + 1);
        if (extentAt < length) {
          readMoved(location, length, view);
          return true;
        }
        extent += 2;
        extentAt = 0;
      }
      byte[] array = arrays.get(slot);
      int end = used.getInt(slot);
      if (array == null || inMemoryAt >= end) {
        return false;
      }
      long decoded = Varint.read(array, inMemoryAt, end - inMemoryAt);
      if (decoded < 0 || (decoded & 0xFF) + (decoded >>> 8) > end - inMemoryAt) {
        throw corrupt(decoded, inMemoryAt, end, "the key's array on the heap");
      }
      int length = (int) (decoded >>> 8);
      int start = inMemoryAt + (int) (decoded & 0xFF);
      view.set(array, start, length);
      inMemoryAt = start + length;
      return true;
    }

    /** A length prefix that cannot be right, named by its offset and where its bytes are. */
    private IOException corrupt(long decoded, long offset, long size, String where) {
      String what =
          decoded < 0
              ? "corrupt value length"
              : "value length " + (decoded >>> 8) + " past the end of the values";
      return new IOException(
          what + " at offset " + offset + " of " + where + " (" + size + " bytes)");
    }

    private void readMoved(long location, long extentLength, ByteView view) throws IOException {
      int headerLength = (int) Math.min(Varint.MAX_BYTES, extentLength - extentAt);
      overflow.read(location + extentAt, lengthBytes, 0, headerLength);
      long decoded = Varint.read(lengthBytes, 0, headerLength);
      if (decoded < 0 || (decoded & 0xFF) + (decoded >>> 8) > extentLength - extentAt) {
        throw corrupt(
            decoded, extentAt, extentLength, "an extent moved to " + overflow.describe(location));
      }
      int length = (int) (decoded >>> 8);
      if (scratch.length < length) {
        scratch = new byte[Math.max(length, scratch.length * 2)];
      }
      overflow.read(location + extentAt + (decoded & 0xFF), scratch, 0, length);
      view.set(scratch, 0, length);
      extentAt += (decoded & 0xFF) + length;
    }
  }
}
