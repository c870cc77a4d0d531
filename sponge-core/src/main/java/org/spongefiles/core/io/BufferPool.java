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
 * Buffers in flight always finish, whatever the writers do, so this cannot deadlock.
 *
 * <p>The invariant is on live buffers (being filled, in flight or idle here): a new buffer is only
 * allocated when none is idle, so at most {@code maxInFlight + max(1, writers filling)} are ever
 * live at once, and a task's write-behind memory is at most that many times {@code size} bytes. At
 * most {@code maxInFlight + 1} idle buffers are kept (one writer's whole set: the buffer it fills
 * and those in flight, so that a writer starting its next file allocates none); one given back
 * beyond that is dropped (no longer live) and the garbage collector frees it.
 */
public final class BufferPool implements Closeable {
  private final int size;
  private final int maxInFlight;
  private final Deque<ByteBuffer> idle = new ArrayDeque<>();
  private int inFlight;
  private int peakInFlight;
  private int live;
  private int peakLive;
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
      buffer = ByteBuffer.allocateDirect(size);
      live++;
      peakLive = Math.max(peakLive, live);
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

  /**
   * Counts another buffer in flight if fewer than {@code maxInFlight} are, without waiting.
   *
   * @return false when as many as the bound are in flight
   */
  public synchronized boolean tryBeginFlight() {
    checkOpen();
    if (inFlight >= maxInFlight) {
      return false;
    }
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    return true;
  }

  /** A buffer in flight was stored (or dropped): it becomes idle and frees its place. */
  public synchronized void endFlight(ByteBuffer buffer) {
    inFlight--;
    giveBack(buffer);
    notifyAll();
  }

  /** A buffer taken to fill is no longer needed: it becomes idle, or is dropped. */
  public synchronized void giveBack(ByteBuffer buffer) {
    if (!closed && idle.size() <= maxInFlight) {
      idle.addFirst(buffer);
    } else {
      live--;
    }
  }

  public int bufferSize() {
    return size;
  }

  /** The most buffers that were ever live at once (being filled, in flight or idle). */
  public synchronized int peakLive() {
    return peakLive;
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
    live -= idle.size();
    idle.clear();
    notifyAll();
  }
}
