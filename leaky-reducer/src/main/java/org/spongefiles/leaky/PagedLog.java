package org.spongefiles.leaky;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.io.IOException;

/**
 * The shared layout's value log: records {@code [varint length][bytes]} appended back to back
 * across fixed-size pages, addressed by their position in the log. Full pages move to the overflow
 * oldest first; a record spanning pages, or lying in a moved page, is copied into a scratch buffer
 * when read, otherwise the reader sees it in place.
 *
 * <pre>
 *   page 0 (moved)        page 1 (moved)        page 2 (heap)        page 3 (heap, filling)
 *   [len|v0][len|v1...    ...v1][len|v2]...     ...                  [len|v9]      ^ end
 * </pre>
 */
final class PagedLog {
  private final int pageSize;
  private final Overflow overflow;
  private final ObjectArrayList<byte[]> pages = new ObjectArrayList<>();
  private final LongArrayList movedTo = new LongArrayList();
  private final byte[] header = new byte[Varint.MAX_BYTES];
  private byte[] scratch = new byte[256];
  private long end;
  private int firstResident;
  private long residentPages;

  PagedLog(int pageSize, Overflow overflow) {
    this.pageSize = pageSize;
    this.overflow = overflow;
  }

  /** Appends one record; returns its address. */
  long append(byte[] bytes, int offset, int length) {
    long address = end;
    int n = Varint.write(length, header, 0);
    put(header, 0, n);
    put(bytes, offset, length);
    return address;
  }

  /** Heap bytes appending a record of {@code recordBytes} bytes allocates: the new pages. */
  long growth(long recordBytes) {
    long room = end % pageSize == 0 ? 0 : pageSize - end % pageSize;
    long beyond = recordBytes - room;
    return beyond <= 0 ? 0 : (beyond + pageSize - 1) / pageSize * pageSize;
  }

  /** Points {@code view} at the value of the record at {@code address}. */
  void read(long address, ByteView view) throws IOException {
    int page = (int) (address / pageSize);
    int at = (int) (address % pageSize);
    byte[] bytes = pages.get(page);
    if (bytes != null) {
      long decoded = Varint.read(bytes, at, pageSize - at);
      if (decoded >= 0) {
        int length = (int) (decoded >>> 8);
        int start = at + (int) (decoded & 0xFF);
        if (start + length <= pageSize) {
          view.set(bytes, start, length);
          return;
        }
      }
    }
    int headerLength = (int) Math.min(Varint.MAX_BYTES, end - address);
    copy(address, header, 0, headerLength);
    long decoded = Varint.read(header, 0, headerLength);
    if (decoded < 0 || address + (decoded & 0xFF) + (decoded >>> 8) > end) {
      throw corrupt(address, decoded);
    }
    int length = (int) (decoded >>> 8);
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
    copy(address + (decoded & 0xFF), scratch, 0, length);
    view.set(scratch, 0, length);
    overflow.readBack(movedBytes(address, (decoded & 0xFF) + length));
  }

  /** How many of the {@code length} bytes at {@code address} lie in pages moved to the overflow. */
  private long movedBytes(long address, long length) {
    long moved = 0;
    while (length > 0) {
      int page = (int) (address / pageSize);
      long n = Math.min(length, pageSize - address % pageSize);
      if (pages.get(page) == null) {
        moved += n;
      }
      address += n;
      length -= n;
    }
    return moved;
  }

  /** A length prefix that cannot be right, named by its address and where its page is. */
  private IOException corrupt(long address, long decoded) {
    int page = (int) (address / pageSize);
    String where =
        pages.get(page) != null
            ? "page " + page + " on the heap"
            : "page " + page + ", moved to " + overflow.describe(movedTo.getLong(page));
    String what =
        decoded < 0
            ? "corrupt value length"
            : "value length " + (decoded >>> 8) + " past the end of the log (" + end + " bytes)";
    return new IOException(
        what
            + " at log address "
            + address
            + " (offset "
            + address % pageSize
            + " of "
            + where
            + ")");
  }

  /** Whether the record at {@code address} starts in a page moved to the overflow. */
  boolean moved(long address) {
    return address / pageSize < firstResident;
  }

  /** The address the next record will get. */
  long end() {
    return end;
  }

  int pageSize() {
    return pageSize;
  }

  /** Heap bytes of the pages still in memory. */
  long residentBytes() {
    return residentPages * pageSize;
  }

  /**
   * Moves full pages, oldest first, to one overflow file until {@code bytes} are freed. The pages
   * are dropped only once the file is committed: when it fails they stay on the heap, readable.
   */
  long spill(long bytes) throws IOException {
    int lastFull = (int) (end / pageSize) - 1;
    int count = (int) Math.min(lastFull - firstResident + 1L, (bytes + pageSize - 1) / pageSize);
    if (count <= 0) {
      return 0;
    }
    long[] locations = new long[count];
    try (Overflow.Writer writer = overflow.begin()) {
      for (int i = 0; i < count; i++) {
        locations[i] = writer.write(pages.get(firstResident + i), 0, pageSize);
      }
      writer.commit();
    }
    for (long location : locations) {
      movedTo.set(firstResident, location);
      pages.set(firstResident, null);
      firstResident++;
      residentPages--;
    }
    return (long) count * pageSize;
  }

  /** Empties the log; the overflow's files are the caller's to clear. */
  void clear() {
    pages.clear();
    movedTo.clear();
    end = 0;
    firstResident = 0;
    residentPages = 0;
  }

  private void put(byte[] bytes, int offset, int length) {
    while (length > 0) {
      int at = (int) (end % pageSize);
      if (at == 0) {
        pages.add(new byte[pageSize]);
        movedTo.add(-1);
        residentPages++;
      }
      byte[] page = pages.get(pages.size() - 1);
      int n = Math.min(length, pageSize - at);
      System.arraycopy(bytes, offset, page, at, n);
      end += n;
      offset += n;
      length -= n;
    }
  }

  private void copy(long address, byte[] dst, int offset, int length) throws IOException {
    while (length > 0) {
      int page = (int) (address / pageSize);
      int at = (int) (address % pageSize);
      int n = Math.min(length, pageSize - at);
      byte[] bytes = pages.get(page);
      if (bytes != null) {
        System.arraycopy(bytes, at, dst, offset, n);
      } else {
        overflow.read(movedTo.getLong(page) + at, dst, offset, n);
      }
      address += n;
      offset += n;
      length -= n;
    }
  }
}
