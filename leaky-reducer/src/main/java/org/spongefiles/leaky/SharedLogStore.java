package org.spongefiles.leaky;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.io.IOException;

/**
 * The shared layout (paper, section IV-B): every value in one {@link PagedLog}, and per key the log
 * addresses of its values. A key's first address sits in a primitive array by slot, so a key with
 * one value (a join's build side) costs no object beyond the key itself; a list appears with the
 * second value.
 */
final class SharedLogStore implements ValueStore {
  /** Object header and fields of a LongArrayList plus its array's header, roughly. */
  private static final int LIST_OVERHEAD = 40;

  private final PagedLog log;
  private final Overflow overflow;
  private final LongArrayList first = new LongArrayList();
  private final IntArrayList counts = new IntArrayList();
  private final ObjectArrayList<LongArrayList> rest = new ObjectArrayList<>();
  private long indexBytes;

  SharedLogStore(int pageSize, Overflow overflow) {
    this.log = new PagedLog(pageSize, overflow);
    this.overflow = overflow;
  }

  @Override
  public void append(int slot, byte[] bytes, int offset, int length) {
    long address = log.append(bytes, offset, length);
    while (first.size() <= slot) {
      first.add(-1);
      counts.add(0);
      rest.add(null);
      indexBytes += 8 + 4 + 8;
    }
    int count = counts.getInt(slot);
    if (count == 0) {
      first.set(slot, address);
    } else {
      LongArrayList more = rest.get(slot);
      if (more == null) {
        more = new LongArrayList(2);
        rest.set(slot, more);
        indexBytes += LIST_OVERHEAD + 16;
      }
      int capacity = more.elements().length;
      more.add(address);
      indexBytes += 8L * (more.elements().length - capacity);
    }
    counts.set(slot, count + 1);
  }

  @Override
  public long growth(int slot, int length) {
    long index = slot >= first.size() ? 8 + 4 + 8 : 0;
    int count = count(slot);
    if (count == 1) {
      index += LIST_OVERHEAD + 16;
    } else if (count > 1) {
      LongArrayList more = rest.get(slot);
      if (more.size() == more.elements().length) {
        index += 8L * Math.max(2, more.elements().length / 2);
      }
    }
    return log.growth(Varint.size(length) + (long) length) + index;
  }

  @Override
  public int count(int slot) {
    return slot < counts.size() ? counts.getInt(slot) : 0;
  }

  /** A key's first value is its oldest, and pages move oldest first. */
  @Override
  public boolean overflowed(int slot) {
    return count(slot) > 0 && log.moved(first.getLong(slot));
  }

  @Override
  public Cursor cursor(int slot) {
    int count = count(slot);
    LongArrayList more = count > 1 ? rest.get(slot) : null;
    long head = count > 0 ? first.getLong(slot) : -1;
    return new Cursor() {
      private int next;

      @Override
      public boolean next(ByteView view) throws IOException {
        if (next >= count) {
          return false;
        }
        log.read(next == 0 ? head : more.getLong(next - 1), view);
        next++;
        return true;
      }
    };
  }

  @Override
  public long heapBytes() {
    return log.residentBytes() + indexBytes;
  }

  @Override
  public long pinnedBytes() {
    return indexBytes;
  }

  @Override
  public int largestArray() {
    return log.pageSize();
  }

  @Override
  public long spill(long bytes) throws IOException {
    return log.spill(bytes);
  }

  @Override
  public void clear() throws IOException {
    log.clear();
    first.clear();
    counts.clear();
    rest.clear();
    indexBytes = 0;
    overflow.clear();
  }

  @Override
  public Layout layout() {
    return Layout.SHARED;
  }

  @Override
  public void close() {
    log.clear();
  }
}
