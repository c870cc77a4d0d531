package org.spongefiles.core.io;

import java.io.Closeable;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A bounded set of chunk-sized direct buffers for chunks written behind the writer. A writer
 * that finds them all in flight waits until the tier it is being written to finishes one, so a
 * task's write-behind memory never exceeds {@code count * size} bytes.
 */
public final class BufferPool implements Closeable {
  private final int size;
  private final int count;
  private final Deque<ByteBuffer> idle = new ArrayDeque<>();
  private int allocated;
  private boolean closed;

  public BufferPool(int size, int count) {
    if (size <= 0) {
      throw new IllegalArgumentException("size : " + size + " (expected: > 0)");
    }
    if (count <= 0) {
      throw new IllegalArgumentException("count : " + count + " (expected: > 0)");
    }
    this.size = size;
    this.count = count;
  }

  /** A cleared buffer of {@link #bufferSize()} bytes, waiting while all are in use. */
  public synchronized ByteBuffer acquire() throws InterruptedIOException {
    while (true) {
      if (closed) {
        throw new IllegalStateException("buffer pool is closed");
      }
      ByteBuffer buffer = idle.pollFirst();
      if (buffer != null) {
        buffer.clear();
        return buffer;
      }
      if (allocated < count) {
        allocated++;
        return ByteBuffer.allocateDirect(size);
      }
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for a write buffer");
      }
    }
  }

  public synchronized void release(ByteBuffer buffer) {
    if (!closed) {
      idle.addFirst(buffer);
    }
    notifyAll();
  }

  public int bufferSize() {
    return size;
  }

  /** Buffers allocated so far (at most the bound). */
  public synchronized int allocated() {
    return allocated;
  }

  @Override
  public synchronized void close() {
    closed = true;
    idle.clear();
    notifyAll();
  }
}
