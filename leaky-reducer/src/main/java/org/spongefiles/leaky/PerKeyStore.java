package org.spongefiles.leaky;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.io.IOException;
import java.util.Arrays;

/**
 * The per-key layout (paper, section IV-C): each key's values back to back as records {@code
 * [varint length][bytes]}, with no per-value index. A key's bytes live in bounded pages: its first
 * array doubles (the paper's double-and-copy) up to the page size, then further values go to new
 * pages of that size, so no array is larger than a page and growing never copies more than half a
 * page. A record may span two pages; it is then copied into a scratch buffer when read. A spill
 * moves the keys holding the most bytes whole into one overflow file and remembers, per key, the
 * extents it moved; a key's values are read back as its extents in order, then its pages.
 */
final class PerKeyStore implements ValueStore {
  /** A growable array's object and array headers, roughly. */
  private static final int ARRAY_OVERHEAD = 32;

  /** Per slot: the tail, used, count and full-page and extent references. */
  private static final int SLOT_BYTES = 8 + 4 + 4 + 8 + 8;

  /** The smallest first array of a key, for values. */
  private static final int FIRST_CAPACITY = 64;

  private final Overflow overflow;
  private final int pageSize;
  private final int firstCapacity;

  /** Per slot, the array being filled (at most a page); null when none. */
  private final ObjectArrayList<byte[]> tails = new ObjectArrayList<>();

  /** Per slot, bytes used in its tail. */
  private final IntArrayList used = new IntArrayList();

  private final IntArrayList counts = new IntArrayList();

  /** Per slot, the full pages before its tail, each {@link #pageSize} bytes; null when none. */
  private final ObjectArrayList<ObjectArrayList<byte[]>> fullPages = new ObjectArrayList<>();

  /** Per slot, pairs (location, length) of extents moved to the overflow; null when none. */
  private final ObjectArrayList<LongArrayList> extents = new ObjectArrayList<>();

  private final byte[] header = new byte[Varint.MAX_BYTES];
  private long heapBytes;
  private long pinnedBytes;
  private int largestArray;

  PerKeyStore(int pageSize, Overflow overflow) {
    this(pageSize, FIRST_CAPACITY, overflow);
  }

  /** A store whose keys' first arrays are at least {@code firstCapacity} bytes. */
  PerKeyStore(int pageSize, int firstCapacity, Overflow overflow) {
    this.pageSize = pageSize;
    this.firstCapacity = firstCapacity;
    this.overflow = overflow;
  }

  @Override
  public void append(int slot, byte[] bytes, int offset, int length) {
    while (tails.size() <= slot) {
      tails.add(null);
      used.add(0);
      counts.add(0);
      fullPages.add(null);
      extents.add(null);
      heapBytes += SLOT_BYTES;
      pinnedBytes += SLOT_BYTES;
    }
    int n = Varint.write(length, header, 0);
    put(slot, header, 0, n, length);
    put(slot, bytes, offset, length, 0);
    counts.set(slot, counts.getInt(slot) + 1);
  }

  /**
   * The heap bytes appending a value of {@code length} bytes to {@code slot} would allocate: what
   * {@link #append} does, without doing it. The table checks its budget against this before it
   * appends.
   */
  @Override
  public long growth(int slot, int length) {
    boolean known = slot < tails.size();
    byte[] tail = known ? tails.get(slot) : null;
    long capacity = tail == null ? 0 : tail.length;
    long at = known ? used.getInt(slot) : 0;
    long rest = Varint.size(length) + (long) length;
    long grown = known ? 0 : SLOT_BYTES;
    boolean fullPagesList = known && fullPages.get(slot) != null;
    while (rest > 0) {
      if (at == capacity) {
        if (capacity > 0 && capacity < pageSize) {
          long grownTo = grownCapacity((int) capacity, at + rest);
          grown += grownTo - capacity;
          capacity = grownTo;
        } else {
          if (capacity > 0 && !fullPagesList) {
            grown += ARRAY_OVERHEAD + 16;
            fullPagesList = true;
          }
          capacity = capacity == 0 ? firstCapacity(rest) : pageSize;
          grown += capacity + ARRAY_OVERHEAD;
          at = 0;
        }
      }
      long n = Math.min(rest, capacity - at);
      at += n;
      rest -= n;
    }
    return grown;
  }

  /**
   * Copies {@code length} bytes to the end of the slot's bytes, growing its tail up to a page and
   * then starting new pages. {@code following} is how many bytes of the same record come next, so a
   * first array is sized for the whole record.
   */
  private void put(int slot, byte[] bytes, int offset, int length, int following) {
    while (length > 0) {
      byte[] tail = tails.get(slot);
      int at = used.getInt(slot);
      if (tail == null || at == tail.length) {
        tail = room(slot, tail, at, (long) length + following);
        at = used.getInt(slot);
      }
      int n = Math.min(length, tail.length - at);
      System.arraycopy(bytes, offset, tail, at, n);
      used.set(slot, at + n);
      offset += n;
      length -= n;
    }
  }

  /** Makes room after a full tail: doubles it while under a page, else starts a new page. */
  private byte[] room(int slot, byte[] tail, int at, long rest) {
    byte[] next;
    if (tail != null && tail.length < pageSize) {
      int capacity = grownCapacity(tail.length, at + rest);
      next = Arrays.copyOf(tail, capacity);
      heapBytes += capacity - tail.length;
    } else {
      if (tail != null) {
        ObjectArrayList<byte[]> pages = fullPages.get(slot);
        if (pages == null) {
          pages = new ObjectArrayList<>(4);
          fullPages.set(slot, pages);
          heapBytes += ARRAY_OVERHEAD + 16;
        }
        pages.add(tail);
        used.set(slot, 0);
      }
      int capacity = tail == null ? firstCapacity(rest) : pageSize;
      next = new byte[capacity];
      heapBytes += capacity + ARRAY_OVERHEAD;
    }
    tails.set(slot, next);
    largestArray = Math.max(largestArray, next.length);
    return next;
  }

  /** A key's first array: the record's size (at least the first capacity), at most a page. */
  private int firstCapacity(long rest) {
    return (int) Math.min(pageSize, Math.max(firstCapacity, rest));
  }

  /** A tail under a page doubled (or to what the record needs), at most a page. */
  private int grownCapacity(int capacity, long need) {
    return (int) Math.min(pageSize, Math.max(capacity * 2L, need));
  }

  /** Bytes of the slot's values on the heap: its full pages, then what its tail holds. */
  private long inMemory(int slot) {
    ObjectArrayList<byte[]> pages = fullPages.get(slot);
    return (pages == null ? 0 : (long) pages.size() * pageSize) + used.getInt(slot);
  }

  @Override
  public int count(int slot) {
    return slot < counts.size() ? counts.getInt(slot) : 0;
  }

  @Override
  public boolean overflowed(int slot) {
    return slot < extents.size() && extents.get(slot) != null;
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
   * Moves the keys holding the most bytes, biggest first, into one overflow file until enough is
   * freed. Their pages are dropped only once the file is committed: when it fails they stay on the
   * heap.
   */
  @Override
  public long spill(long bytes) throws IOException {
    int[] slots = new int[tails.size()];
    long[] sizes = new long[tails.size()];
    int candidates = 0;
    for (int slot = 0; slot < tails.size(); slot++) {
      sizes[slot] = inMemory(slot);
      if (sizes[slot] > 0) {
        slots[candidates++] = slot;
      }
    }
    if (candidates == 0) {
      return 0;
    }
    IntArrays.quickSort(slots, 0, candidates, (a, b) -> Long.compare(sizes[b], sizes[a]));
    int chosen = 0;
    long[] locations = new long[candidates];
    try (Overflow.Writer writer = overflow.begin()) {
      for (long freeing = 0; chosen < candidates && freeing < bytes; chosen++) {
        int slot = slots[chosen];
        ObjectArrayList<byte[]> pages = fullPages.get(slot);
        long location = -1;
        if (pages != null) {
          for (byte[] page : pages) {
            long at = writer.write(page, 0, page.length);
            location = location < 0 ? at : location;
          }
        }
        long at = writer.write(tails.get(slot), 0, used.getInt(slot));
        locations[chosen] = location < 0 ? at : location;
        freeing += sizes[slot];
      }
      writer.commit();
    }
    long freed = 0;
    for (int i = 0; i < chosen; i++) {
      freed += moved(slots[i], locations[i], sizes[slots[i]]);
    }
    return freed;
  }

  /**
   * Records that the {@code length} bytes of {@code slot} on the heap are now at {@code location};
   * frees its pages and returns the heap bytes freed.
   */
  private long moved(int slot, long location, long length) {
    LongArrayList moved = extents.get(slot);
    if (moved == null) {
      moved = new LongArrayList(2);
      extents.set(slot, moved);
      heapBytes += ARRAY_OVERHEAD + 16;
      pinnedBytes += ARRAY_OVERHEAD + 16;
    }
    int capacity = moved.elements().length;
    moved.add(location);
    moved.add(length);
    heapBytes += 8L * (moved.elements().length - capacity);
    pinnedBytes += 8L * (moved.elements().length - capacity);
    long freed = tails.get(slot).length + ARRAY_OVERHEAD;
    ObjectArrayList<byte[]> pages = fullPages.get(slot);
    if (pages != null) {
      freed += (long) pages.size() * (pageSize + ARRAY_OVERHEAD) + ARRAY_OVERHEAD + 16;
      fullPages.set(slot, null);
    }
    tails.set(slot, null);
    used.set(slot, 0);
    heapBytes -= freed;
    return freed;
  }

  @Override
  public void clear() throws IOException {
    tails.clear();
    used.clear();
    counts.clear();
    fullPages.clear();
    extents.clear();
    heapBytes = 0;
    pinnedBytes = 0;
    overflow.clear();
  }

  @Override
  public Layout layout() {
    return Layout.PER_KEY;
  }

  @Override
  public void close() {
    tails.clear();
    fullPages.clear();
    extents.clear();
  }

  /** About what this layout pins for {@code keys} keys once each has moved values once. */
  static long pinnedEstimate(int keys) {
    return (long) keys * (SLOT_BYTES + ARRAY_OVERHEAD + 16 + 16);
  }

  @Override
  public long indexBytes() {
    return pinnedBytes;
  }

  @Override
  public int largestArray() {
    return largestArray;
  }

  /** The values of one key: its moved extents, read through the overflow, then its pages. */
  private final class KeyCursor implements Cursor {
    private final int slot;
    private final LongArrayList moved;
    private int extent;
    private long extentAt;
    private long inMemoryAt;
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
      long end = inMemory(slot);
      if (inMemoryAt >= end) {
        return false;
      }
      byte[] page = page((int) (inMemoryAt / pageSize));
      int at = (int) (inMemoryAt % pageSize);
      int inPage = (int) Math.min(page.length - at, end - inMemoryAt);
      long decoded = Varint.read(page, at, inPage);
      if (decoded == Varint.TRUNCATED) {
        int headerLength = (int) Math.min(Varint.MAX_BYTES, end - inMemoryAt);
        copy(inMemoryAt, lengthBytes, 0, headerLength);
        decoded = Varint.read(lengthBytes, 0, headerLength);
      }
      if (decoded < 0 || (decoded & 0xFF) + (decoded >>> 8) > end - inMemoryAt) {
        throw corrupt(decoded, inMemoryAt, end, "the key's pages on the heap");
      }
      int length = (int) (decoded >>> 8);
      long start = inMemoryAt + (decoded & 0xFF);
      int startAt = (int) (start % pageSize);
      if (start / pageSize == inMemoryAt / pageSize && startAt + length <= page.length) {
        view.set(page, startAt, length);
      } else {
        ensureScratch(length);
        copy(start, scratch, 0, length);
        view.set(scratch, 0, length);
      }
      inMemoryAt = start + length;
      return true;
    }

    /** Full page {@code index} of the slot, or its tail after them. */
    private byte[] page(int index) {
      ObjectArrayList<byte[]> pages = fullPages.get(slot);
      int full = pages == null ? 0 : pages.size();
      return index < full ? pages.get(index) : tails.get(slot);
    }

    /** Copies the slot's bytes on the heap at {@code position} across pages. */
    private void copy(long position, byte[] dst, int offset, int length) {
      while (length > 0) {
        byte[] page = page((int) (position / pageSize));
        int at = (int) (position % pageSize);
        int n = Math.min(length, page.length - at);
        System.arraycopy(page, at, dst, offset, n);
        position += n;
        offset += n;
        length -= n;
      }
    }

    private void ensureScratch(int length) {
      if (scratch.length < length) {
        scratch = new byte[Math.max(length, scratch.length * 2)];
      }
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
      ensureScratch(length);
      overflow.read(location + extentAt + (decoded & 0xFF), scratch, 0, length);
      view.set(scratch, 0, length);
      overflow.readBack((decoded & 0xFF) + length);
      extentAt += (decoded & 0xFF) + length;
    }
  }
}
