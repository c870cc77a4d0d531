package org.spongefiles.core;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.spongefiles.core.io.Checksums;
import org.spongefiles.core.tier.StoredChunk;
import org.spongefiles.core.tier.TierKind;

/**
 * Reads a closed SpongeFile, sequentially or from any position. Chunks arrive in windows of whole
 * checksum blocks, verified against their CRC32C; a pool chunk's windows are copied in the reader's
 * thread (a memory copy), any other chunk's next window is fetched by the task's I/O threads while
 * the current one is read, and asked for as soon as the reader moves to the current one (so that
 * while the reader waits for a window, the one after it is on its way too, in the buffer of the
 * window the reader left). It is {@link Seekable} and {@link PositionedReadable}, so Hadoop's
 * {@code FSDataInputStream} (and so {@code IFile.Reader}) can sit on top. Not thread-safe: one
 * reader per thread, any number of readers per file.
 */
public final class SpongeInputStream extends InputStream implements Seekable, PositionedReadable {
  private final SpongeFile file;
  private final SpongeTask task;
  private final ChunkRecord[] chunks;
  private final long length;
  private final int chunkSize;
  private final int blockSize;
  private final int windowSize;

  private long pos;
  private ByteBuffer window;
  private long windowStart;
  private ChunkRecord windowRecord;
  private ByteBuffer spare;
  private Fetch pending;
  private long unreportedBytes;
  private int unreportedChunks;
  private boolean closed;

  /** A window being fetched by an I/O thread. */
  private static final class Fetch {
    final int chunk;
    final int offset;
    final int length;
    final ByteBuffer buffer;
    final CompletableFuture<Void> done;

    Fetch(int chunk, int offset, int length, ByteBuffer buffer, CompletableFuture<Void> done) {
      this.chunk = chunk;
      this.offset = offset;
      this.length = length;
      this.buffer = buffer;
      this.done = done;
    }
  }

  SpongeInputStream(
      SpongeFile file, SpongeTask task, ChunkRecord[] chunks, long length, int bufferSize) {
    this.file = file;
    this.task = task;
    this.chunks = chunks;
    this.length = length;
    this.chunkSize = task.chunkSize();
    this.blockSize = task.checksumBlockSize();
    if (bufferSize <= 0) {
      throw new IllegalArgumentException("bufferSize : " + bufferSize + " (expected: > 0)");
    }
    this.windowSize = task.readWindow(bufferSize);
  }

  /** Bytes in the file. */
  public long length() {
    return length;
  }

  @Override
  public int read() throws IOException {
    if (!prepare()) {
      return -1;
    }
    int b = window.get() & 0xff;
    pos++;
    unreportedBytes++;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if ((off | len) < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException(
          "offset " + off + ", length " + len + " for an array of " + b.length);
    }
    if (len == 0) {
      return 0;
    }
    if (!prepare()) {
      return -1;
    }
    int n = Math.min(len, window.remaining());
    window.get(b, off, n);
    pos += n;
    unreportedBytes += n;
    return n;
  }

  /** Reads into {@code dst} up to its remaining bytes; returns how many, or -1 at the end. */
  public int read(ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    if (!prepare()) {
      return -1;
    }
    int n = Math.min(dst.remaining(), window.remaining());
    ByteBuffer slice = window.duplicate();
    slice.limit(slice.position() + n);
    dst.put(slice);
    window.position(window.position() + n);
    pos += n;
    unreportedBytes += n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    checkOpen();
    long target = Math.min(length, pos + Math.max(0, n));
    long skipped = target - pos;
    seek(target);
    return skipped;
  }

  /** Bytes that can be read without waiting: what is left of the current window. */
  @Override
  public int available() throws IOException {
    checkOpen();
    if (window != null && pos >= windowStart && pos < windowStart + window.limit()) {
      return (int) (windowStart + window.limit() - pos);
    }
    return 0;
  }

  @Override
  public void seek(long position) throws IOException {
    checkOpen();
    if (position < 0 || position > length) {
      throw new EOFException(
          "Cannot seek to " + position + " in " + file + " of " + length + " bytes");
    }
    pos = position;
  }

  @Override
  public long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int len) throws IOException {
    checkOpen();
    if (position >= length) {
      return -1;
    }
    int n = (int) Math.min(len, length - position);
    readFully(position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
    checkOpen();
    if (position < 0 || position + len > length) {
      throw new EOFException(
          "Cannot read "
              + len
              + " bytes at "
              + position
              + " of "
              + file
              + " ("
              + length
              + " bytes)");
    }
    while (len > 0) {
      int chunk = (int) (position / chunkSize);
      int inChunk = (int) (position % chunkSize);
      int n = Math.min(len, chunks[chunk].length() - inChunk);
      readRange(chunk, inChunk, buffer, offset, n);
      position += n;
      offset += n;
      len -= n;
    }
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      report();
      // A buffer still being filled by a prefetch is left to the garbage collector.
      pending = null;
      task.readBuffers().giveBack(window);
      task.readBuffers().giveBack(spare);
      window = null;
      spare = null;
    }
  }

  /** Makes {@link #window} hold the byte at {@link #pos}; false at the end of the file. */
  private boolean prepare() throws IOException {
    checkOpen();
    if (pos >= length) {
      return false;
    }
    if (window == null || pos < windowStart || pos >= windowStart + window.limit()) {
      load();
    } else {
      window.position((int) (pos - windowStart));
    }
    return true;
  }

  /**
   * Moves the reader to the window holding {@link #pos}. The window it leaves is done with, so its
   * buffer takes the window after the new one, asked for before the new one is waited for: while
   * the reader waits, two windows are on their way, and it still holds two buffers.
   */
  private void load() throws IOException {
    report();
    int chunk = (int) (pos / chunkSize);
    int inChunk = (int) (pos % chunkSize);
    ChunkRecord record = chunks[chunk];
    int offset = inChunk - inChunk % blockSize;
    int len = Math.min(windowSize, record.length() - offset);
    recycle(window);
    window = null;
    Fetch arriving = takePending(chunk, offset, len);
    prefetchAfter(chunk, offset + len);
    window = fetch(chunk, offset, len, arriving);
    windowStart = (long) chunk * chunkSize + offset;
    windowRecord = record;
    if (offset == 0) {
      unreportedChunks++;
    }
    window.position((int) (pos - windowStart));
  }

  /**
   * The prefetch of the window at {@code offset} of {@code chunk}, or null; a prefetch of another
   * window (the reader sought elsewhere) is dropped, and waiting for it to end counts as blocked
   * reading (prefetches are of chunks outside the pool).
   */
  private Fetch takePending(int chunk, int offset, int len) {
    Fetch fetch = pending;
    pending = null;
    if (fetch == null) {
      return null;
    }
    if (fetch.chunk == chunk && fetch.offset == offset && fetch.length == len) {
      return fetch;
    }
    long start = System.nanoTime();
    discard(fetch);
    task.stats().addBlockedRead(System.nanoTime() - start);
    return null;
  }

  /**
   * The bytes of the window at {@code offset} of {@code chunk}: those {@code arriving}, or read
   * now. Time spent here counts as blocked reading, except a pool chunk's copy.
   */
  private ByteBuffer fetch(int chunk, int offset, int len, Fetch arriving) throws IOException {
    boolean io = chunks[chunk].chunk.tier() != TierKind.POOL;
    long start = io ? System.nanoTime() : 0;
    try {
      if (arriving != null) {
        await(arriving.done);
        return arriving.buffer;
      }
      ByteBuffer buffer = takeSpare();
      readVerified(chunk, offset, len, buffer);
      return buffer;
    } finally {
      if (io) {
        task.stats().addBlockedRead(System.nanoTime() - start);
      }
    }
  }

  /**
   * Drops a prefetch of a window the reader no longer wants (it sought elsewhere): its failure is
   * not the reader's, and its buffer is reused once the read into it has ended.
   */
  private void discard(Fetch fetch) {
    try {
      fetch.done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return; // the buffer may still be written into: leave it to the garbage collector
    } catch (ExecutionException e) {
      // not this read's concern
    }
    recycle(fetch.buffer);
  }

  private void prefetchAfter(int chunk, int nextOffset) {
    if (!task.prefetch()) {
      return;
    }
    int next = chunk;
    if (nextOffset >= chunks[chunk].length()) {
      next = chunk + 1;
      nextOffset = 0;
    }
    if (next >= chunks.length || chunks[next].chunk.tier() == TierKind.POOL) {
      return;
    }
    int fetchChunk = next;
    int fetchOffset = nextOffset;
    int len = Math.min(windowSize, chunks[next].length() - nextOffset);
    ByteBuffer buffer = takeSpare();
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      task.io()
          .execute(
              () -> {
                try {
                  readVerified(fetchChunk, fetchOffset, len, buffer);
                  done.complete(null);
                } catch (Throwable t) {
                  done.completeExceptionally(t);
                }
              });
    } catch (RuntimeException rejected) {
      // The task is closing; the reader will read synchronously (and fail with a clear state).
      recycle(buffer);
      return;
    }
    pending = new Fetch(fetchChunk, fetchOffset, len, buffer, done);
  }

  /**
   * Reads {@code len} bytes at {@code offset} of a chunk into {@code buffer} (left with position 0
   * and limit {@code len}) and verifies their blocks.
   */
  private void readVerified(int chunk, int offset, int len, ByteBuffer buffer) throws IOException {
    ChunkRecord record = chunks[chunk];
    buffer.clear().limit(len);
    record.chunk.read(offset, buffer);
    buffer.flip();
    if (record.crcs != null) {
      verify(chunk, record, buffer, offset, offset, len);
    }
  }

  /** Reads part of one chunk for a positioned read, verifying the blocks it touches. */
  private void readRange(int chunk, int inChunk, byte[] dst, int dstOffset, int len)
      throws IOException {
    ChunkRecord record = chunks[chunk];
    int from = record.crcs == null ? inChunk : inChunk - inChunk % blockSize;
    int to =
        record.crcs == null
            ? inChunk + len
            : Math.min(record.length(), ((inChunk + len + blockSize - 1) / blockSize) * blockSize);
    byte[] bytes = new byte[to - from];
    record.chunk.read(from, ByteBuffer.wrap(bytes));
    if (record.crcs != null) {
      verify(chunk, record, ByteBuffer.wrap(bytes), from, from, to - from);
    }
    System.arraycopy(bytes, inChunk - from, dst, dstOffset, len);
    task.stats().recordRead(record.chunk.tier(), len, 0);
  }

  /**
   * Checks the CRC32C of every block in chunk bytes {@code [from, from + len)}, found in {@code
   * data} at index {@code from - dataOffset}.
   */
  private void verify(
      int chunk, ChunkRecord record, ByteBuffer data, int dataOffset, int from, int len)
      throws ChecksumException {
    for (int at = from; at < from + len; at += blockSize) {
      int block = at / blockSize;
      int blockLength = Math.min(blockSize, record.length() - at);
      int actual = Checksums.crc(data, at - dataOffset, blockLength);
      if (actual != record.crcs[block]) {
        StoredChunk where = record.chunk;
        throw new ChecksumException(
            String.format(
                "Checksum mismatch in %s: chunk %d (%s tier, %s), block %d (chunk bytes %d to %d):"
                    + " stored crc32c 0x%08x, read 0x%08x",
                file,
                chunk,
                where.tier().label(),
                where.describe(),
                block,
                at,
                at + blockLength - 1,
                record.crcs[block],
                actual),
            (long) chunk * chunkSize + at);
      }
    }
  }

  private ByteBuffer takeSpare() {
    ByteBuffer buffer = spare;
    spare = null;
    return buffer != null ? buffer : task.readBuffers().take(windowSize);
  }

  private void recycle(ByteBuffer buffer) {
    if (buffer == null) {
      return;
    }
    if (spare == null) {
      spare = buffer;
    } else {
      task.readBuffers().giveBack(buffer);
    }
  }

  private void await(CompletableFuture<Void> done) throws IOException {
    try {
      done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted reading " + file);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ChecksumException) {
        throw new ChecksumException(cause.getMessage(), ((ChecksumException) cause).getPos());
      }
      if (cause instanceof IOException) {
        throw new IOException(cause.getMessage(), cause);
      }
      throw new IOException("Reading " + file + " failed", cause);
    }
  }

  private void report() {
    if (windowRecord != null && (unreportedBytes > 0 || unreportedChunks > 0)) {
      task.stats().recordRead(windowRecord.chunk.tier(), unreportedBytes, unreportedChunks);
    }
    unreportedBytes = 0;
    unreportedChunks = 0;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("Reader of " + file + " is closed");
    }
    file.requireState(SpongeFileState.CLOSED, "read");
  }
}
