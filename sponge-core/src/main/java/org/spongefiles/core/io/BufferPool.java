package org.spongefiles.core.io;

import java.io.Closeable;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Chunk-sized direct buffers for chunks written behind the writer. Each writer fills one buffer of
 * its own ({@link #take()} never waits); when it hands a full buffer to the I/O threads it first
 * waits in {@link #beginFlight()} until fewer than {@code maxInFlight} are queued or being stored.
 * Buffers in flight always finish, whatever the writers do, so this cannot deadlock; a task's
 * write-behind memory is at most {@code (maxInFlight + writers filling) * size} bytes.
 */
public final class BufferPool implements Closeable {
  private final int size;
  private final int maxInFlight;
  private final Deque<ByteBuffer> idle = new ArrayDeque<>();
  private int inFlight;
  private int peakInFlight;
  private int allocated;
  private boolean closed;

  public BufferPool(int size, int maxInFlight) {
    if (size <= 0) {
      throw new IllegalArgumentException("size : " + size + " (expected: > 0)");
    }
    if (maxInFlight <= 0) {
      throw new IllegalArgumentException("maxInFlight : " + maxInFlight + " (expected: > 0)");
    }
    this.size = size;
    this.maxInFlight = maxInFlight;
  }

  /** A cleared buffer to fill: an idle one, or a new one. */
  public synchronized ByteBuffer take() {
    checkOpen();
    ByteBuffer buffer = idle.pollFirst();
    if (buffer == null) {
      allocated++;
      buffer = ByteBuffer.allocateDirect(size);
    }
    buffer.clear();
    return buffer;
  }

  /** Waits until another buffer may be in flight, and counts it in. */
  public synchronized void beginFlight() throws InterruptedIOException {
    while (inFlight >= maxInFlight) {
      checkOpen();
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for a chunk to be written behind");
      }
    }
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
  }

  /** A buffer in flight was stored (or dropped): it becomes idle and frees its place. */
  public synchronized void endFlight(ByteBuffer buffer) {
    inFlight--;
    giveBack(buffer);
    notifyAll();
  }

  /** A buffer taken to fill is no longer needed. */
  public synchronized void giveBack(ByteBuffer buffer) {
    if (!closed && idle.size() < maxInFlight) {
      idle.addFirst(buffer);
    }
  }

  public int bufferSize() {
    return size;
  }

  /** Buffers allocated so far. */
  public synchronized int allocated() {
    return allocated;
  }

  /** The most buffers that were ever in flight at once; never more than the bound. */
  public synchronized int peakInFlight() {
    return peakInFlight;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("write buffers are closed");
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    idle.clear();
    notifyAll();
  }
}
