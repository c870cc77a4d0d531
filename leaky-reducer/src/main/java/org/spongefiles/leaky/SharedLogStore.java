package org.spongefiles.leaky;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.io.IOException;

/**
 * The shared layout (paper, section IV-B): every value in one {@link PagedLog}, and per key the log
 * addresses of its values. A key's first address sits in a primitive array by slot, so a key with
 * one value (a join's build side) costs no object beyond the key itself. From its second value on,
 * a key's further addresses go to its address list, kept as the values of a {@link PerKeyStore}:
 * each address as its distance from the key's previous one, in as few bytes as it takes, in bounded
 * pages that move to the overflow like the values do. So a hot key's millions of addresses are no
 * more pinned to the heap than its values: the heap holds 12 bytes per key, plus a few dozen per
 * key with more than one value.
 */
final class SharedLogStore implements ValueStore {
  /** Per slot: the first address (8) and the key's address list, or -1 (4). */
  private static final int SLOT_BYTES = 8 + 4;

  /** Per address list: the key's last address. */
  private static final int LIST_BYTES = 8;

  /** The first array of an address list: room for a few distances. */
  private static final int LIST_FIRST_CAPACITY = 16;

  private final PagedLog log;
  private final Overflow overflow;
  private final LongArrayList first = new LongArrayList();
  private final IntArrayList lists = new IntArrayList();
  private final LongArrayList last = new LongArrayList();
  private final PerKeyStore addresses;
  private final byte[] delta = new byte[8];
  private long indexBytes;
  private long addressBytes;

  SharedLogStore(int pageSize, Overflow overflow) {
    this.log = new PagedLog(pageSize, overflow);
    this.overflow = overflow;
    this.addresses = new PerKeyStore(pageSize, LIST_FIRST_CAPACITY, overflow);
  }

  @Override
  public void append(int slot, byte[] bytes, int offset, int length) {
    while (first.size() <= slot) {
      first.add(-1);
      lists.add(-1);
      indexBytes += SLOT_BYTES;
    }
    long address = log.append(bytes, offset, length);
    if (first.getLong(slot) < 0) {
      first.set(slot, address);
      return;
    }
    int list = lists.getInt(slot);
    long previous;
    if (list < 0) {
      list = last.size();
      lists.set(slot, list);
      last.add(address);
      indexBytes += LIST_BYTES;
      previous = first.getLong(slot);
    } else {
      previous = last.getLong(list);
      last.set(list, address);
    }
    int n = encode(address - previous, delta);
    addresses.append(list, delta, 0, n);
    addressBytes += 1 + n;
  }

  @Override
  public long growth(int slot, int length) {
    long record = Varint.size(length) + (long) length;
    long grown = log.growth(record);
    if (slot >= first.size()) {
      return grown + SLOT_BYTES;
    }
    if (first.getLong(slot) < 0) {
      return grown;
    }
    int list = lists.getInt(slot);
    long previous = list < 0 ? first.getLong(slot) : last.getLong(list);
    int n = encode(log.end() - previous, delta);
    return grown
        + (list < 0 ? LIST_BYTES + addresses.growth(last.size(), n) : addresses.growth(list, n));
  }

  /**
   * Writes {@code distance} big-endian in as few bytes as it takes (at least one); returns them.
   */
  static int encode(long distance, byte[] dst) {
    int n = Math.max(1, 8 - Long.numberOfLeadingZeros(distance) / 8);
    for (int i = n - 1; i >= 0; i--) {
      dst[i] = (byte) distance;
      distance >>>= 8;
    }
    return n;
  }

  /** Reads what {@link #encode} wrote. */
  static long decode(byte[] src, int offset, int length) {
    long distance = 0;
    for (int i = 0; i < length; i++) {
      distance = distance << 8 | (src[offset + i] & 0xFF);
    }
    return distance;
  }

  @Override
  public int count(int slot) {
    if (slot >= first.size() || first.getLong(slot) < 0) {
      return 0;
    }
    int list = lists.getInt(slot);
    return 1 + (list < 0 ? 0 : addresses.count(list));
  }

  /**
   * A key's first value is its oldest, and pages move oldest first; a key whose values all stayed
   * may still have had its address list moved.
   */
  @Override
  public boolean overflowed(int slot) {
    if (count(slot) == 0) {
      return false;
    }
    int list = lists.getInt(slot);
    return log.moved(first.getLong(slot)) || (list >= 0 && addresses.overflowed(list));
  }

  @Override
  public Cursor cursor(int slot) {
    int count = count(slot);
    if (count == 0) {
      return view -> false;
    }
    long head = first.getLong(slot);
    int list = lists.getInt(slot);
    Cursor more = list < 0 ? null : addresses.cursor(list);
    ByteView distance = new ByteView();
    return new Cursor() {
      private boolean started;
      private long address = head;

      @Override
      public boolean next(ByteView view) throws IOException {
        if (!started) {
          started = true;
        } else if (more != null && more.next(distance)) {
          address += decode(distance.bytes, distance.offset, distance.length);
        } else {
          return false;
        }
        log.read(address, view);
        return true;
      }
    };
  }

  @Override
  public long heapBytes() {
    return log.residentBytes() + indexBytes + addresses.heapBytes();
  }

  @Override
  public long indexBytes() {
    return indexBytes + addressBytes;
  }

  @Override
  public int largestArray() {
    return Math.max(log.pageSize(), addresses.largestArray());
  }

  /**
   * Moves full log pages, oldest first; then, if that was not enough, the longest address lists.
   */
  @Override
  public long spill(long bytes) throws IOException {
    long freed = log.spill(bytes);
    if (freed < bytes) {
      freed += addresses.spill(bytes - freed);
    }
    return freed;
  }

  @Override
  public void clear() throws IOException {
    log.clear();
    first.clear();
    lists.clear();
    last.clear();
    addresses.clear();
    indexBytes = 0;
    addressBytes = 0;
    overflow.clear();
  }

  @Override
  public Layout layout() {
    return Layout.SHARED;
  }

  @Override
  public void close() {
    log.clear();
    addresses.close();
  }
}
