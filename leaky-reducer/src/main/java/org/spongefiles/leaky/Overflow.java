package org.spongefiles.leaky;

import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Supplier;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeTask;

/**
 * The value bytes a table moved off the heap: write-once SpongeFiles of one task, each written by
 * one spill and read back at any position. A location packs the file's index (high 24 bits) and the
 * offset in it (low 40 bits) into one long, so stores keep locations in primitive lists.
 *
 * <p>The SpongeTask is opened on the first spill, so a table that stays within its budget costs no
 * thread, file or pool chunk.
 */
final class Overflow implements Closeable {
  private static final int OFFSET_BITS = 40;
  private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
  private static final int WINDOW = 16 << 10;

  private final Supplier<SpongeTask> opener;
  private final boolean ownsTask;
  private final String name;
  private final ObjectArrayList<SpongeFile> files = new ObjectArrayList<>();
  private final ObjectArrayList<OverflowReader> readers = new ObjectArrayList<>();
  private SpongeTask task;
  private long bytesWritten;
  private long bytesReadBack;
  private int filesWritten;
  private boolean closed;

  /**
   * @param opener opens the SpongeTask on first use
   * @param ownsTask whether {@link #close()} closes that task
   * @param name prefix of the SpongeFiles' names, shown in messages
   */
  Overflow(Supplier<SpongeTask> opener, boolean ownsTask, String name) {
    this.opener = opener;
    this.ownsTask = ownsTask;
    this.name = name;
  }

  /**
   * Starts a new overflow file; the caller writes it through the returned writer, commits, then
   * closes. One writer at a time.
   */
  Writer begin() throws IOException {
    if (closed) {
      throw new IllegalStateException("overflow of " + name + " is closed");
    }
    if (task == null) {
      task = opener.get();
    }
    if (files.size() >= (1 << 23)) {
      throw new IOException(name + " has written too many overflow files: " + files.size());
    }
    SpongeFile file = task.create(name + "-" + files.size());
    files.add(file);
    readers.add(null);
    return new Writer(files.size() - 1, file.output());
  }

  /** Copies {@code len} bytes at {@code location} into {@code dst}. */
  void read(long location, byte[] dst, int off, int len) throws IOException {
    int index = (int) (location >>> OFFSET_BITS);
    long offset = location & OFFSET_MASK;
    OverflowReader reader = readers.get(index);
    if (reader == null) {
      reader = new OverflowReader(files.get(index), WINDOW);
      readers.set(index, reader);
    }
    reader.read(offset, dst, off, len);
  }

  /** Where {@code location} is, for messages: the file and the offset in it. */
  String describe(long location) {
    int index = (int) (location >>> OFFSET_BITS);
    long offset = location & OFFSET_MASK;
    String file = index < files.size() ? files.get(index).toString() : "file " + name + "-" + index;
    return "overflow " + file + " at offset " + offset;
  }

  /**
   * Counts {@code bytes} of value records (length prefix and value) a store read back from the
   * overflow; a record read twice counts twice.
   */
  void readBack(long bytes) {
    bytesReadBack += bytes;
  }

  /** Bytes of value records read back from SpongeFiles so far. */
  long bytesReadBack() {
    return bytesReadBack;
  }

  /** Bytes written to SpongeFiles so far, including files deleted by {@link #clear()}. */
  long bytesWritten() {
    return bytesWritten;
  }

  int filesWritten() {
    return filesWritten;
  }

  /** Where spilled bytes went, per tier; null before the first spill. */
  SpongeTask task() {
    return task;
  }

  /** Deletes every overflow file (their locations become invalid); the task stays open. */
  void clear() throws IOException {
    IOException failure = null;
    for (int i = 0; i < files.size(); i++) {
      OverflowReader reader = readers.get(i);
      if (reader != null) {
        reader.close();
      }
      try {
        files.get(i).delete();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    files.clear();
    readers.clear();
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      clear();
    } finally {
      if (ownsTask && task != null) {
        task.close();
      }
    }
  }

  /** Forgets the file being written (the last one) and deletes it with whatever it stored. */
  private void discard(int index) throws IOException {
    SpongeFile file = files.get(index);
    files.remove(index);
    readers.remove(index);
    file.delete();
  }

  /**
   * Appends bytes to one overflow file and tells where each run of bytes landed. The locations are
   * valid only once {@link #commit()} returned: a chunk written behind may fail after its write
   * call returned, and the failure surfaces when the file is finished.
   */
  final class Writer implements Closeable {
    private final int index;
    private final OutputStream out;
    private long offset;
    private boolean committed;
    private boolean closed;

    private Writer(int index, OutputStream out) {
      this.index = index;
      this.out = out;
    }

    /** Writes {@code len} bytes; returns the location of the first. */
    long write(byte[] b, int off, int len) throws IOException {
      long location = ((long) index << OFFSET_BITS) | offset;
      out.write(b, off, len);
      offset += len;
      if (offset > OFFSET_MASK) {
        throw new IOException("overflow file " + index + " of " + name + " passed 1 TiB");
      }
      return location;
    }

    /** Finishes the file; throws when any of its bytes could not be stored. */
    void commit() throws IOException {
      out.close();
      committed = true;
      bytesWritten += offset;
      filesWritten++;
    }

    /** Without a commit (a write or the commit failed), deletes the file: nothing refers to it. */
    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      if (!committed) {
        discard(index);
      }
    }
  }
}
