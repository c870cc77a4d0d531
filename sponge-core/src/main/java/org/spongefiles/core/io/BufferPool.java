package org.spongefiles.core.io;

import java.io.Closeable;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Chunk-sized direct buffers for chunks written behind the writer. Each writer fills one buffer of
 * its own ({@link #take()} never waits); when it hands a full buffer to the I/O threads it first
 * waits in {@link #beginFlight} until fewer than {@code maxInFlight} are queued or being stored.
 * Buffers in flight always finish, whatever the writers do, so this cannot deadlock.
 *
 * <p>The invariant is on live buffers (being filled, in flight or idle here): a new buffer is only
 * allocated when none is idle, so at most {@code maxInFlight + max(1, writers filling)} are ever
 * live at once, and a task's write-behind memory is at most that many times {@code size} bytes. At
 * most {@code maxInFlight + 1} idle buffers are kept (one writer's whole set: the buffer it fills
 * and those in flight, so that a writer starting its next file allocates none); one given back
 * beyond that is dropped (no longer live) and the garbage collector frees it.
 *
 * <p>It also times its flights (from {@link #beginFlight} to {@link #endFlight}), so that a writer
 * that finds every place taken can wait for one due back soon ({@link #awaitPlaceSoon}).
 */
public final class BufferPool implements Closeable {
  private final int size;
  private final int maxInFlight;
  private final Deque<ByteBuffer> idle = new ArrayDeque<>();
  private final Map<ByteBuffer, Long> flightStarts = new IdentityHashMap<>();
  // A moving mean of the flights' durations (each new one weighs 1/4); -1 before the first ends.
  private long meanFlightNanos = -1;
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

  /** Waits until another buffer may be in flight, and counts {@code buffer} in. */
  public synchronized void beginFlight(ByteBuffer buffer) throws InterruptedIOException {
    while (inFlight >= maxInFlight) {
      checkOpen();
      awaitPlace(0);
    }
    countIn(buffer);
  }

  /**
   * Counts {@code buffer} in flight if fewer than {@code maxInFlight} are, without waiting.
   *
   * @return false when as many as the bound are in flight
   */
  public synchronized boolean tryBeginFlight(ByteBuffer buffer) {
    checkOpen();
    if (inFlight >= maxInFlight) {
      return false;
    }
    countIn(buffer);
    return true;
  }

  /**
   * Waits for a place in flight if the buffer longest in flight is due back within {@code
   * waitNanos} of now, before or after (due: its start plus the mean duration of the flights so
   * far, or plus {@code waitNanos} before any ended); waits at most {@code waitNanos}. A flight
   * overdue by more than that is not waited for: whatever holds it (a stalled peer, a slow link) is
   * not worth the wait. Counts nothing in: another writer may take the place first.
   *
   * @return true when a place is free, false (having waited at most {@code waitNanos}) when none
   *     freed in time or none was due to
   */
  public synchronized boolean awaitPlaceSoon(long waitNanos) throws InterruptedIOException {
    checkOpen();
    if (inFlight < maxInFlight) {
      return true;
    }
    long now = System.nanoTime();
    long due = oldestStart() + (meanFlightNanos < 0 ? waitNanos : meanFlightNanos);
    if (waitNanos <= 0 || Math.abs(due - now) > waitNanos) {
      return false;
    }
    long deadline = now + waitNanos;
    while (inFlight >= maxInFlight) {
      checkOpen();
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      awaitPlace(left);
    }
    return true;
  }

  /** The mean time a buffer was in flight, of the flights so far; -1 before the first ended. */
  public synchronized long meanFlightNanos() {
    return meanFlightNanos;
  }

  private void awaitPlace(long nanos) throws InterruptedIOException {
    try {
      if (nanos <= 0) {
        wait();
      } else {
        wait(nanos / 1_000_000, (int) (nanos % 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a chunk to be written behind");
    }
  }

  private void countIn(ByteBuffer buffer) {
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    flightStarts.put(buffer, System.nanoTime());
  }

  private long oldestStart() {
    long oldest = Long.MAX_VALUE;
    for (long start : flightStarts.values()) {
      oldest = Math.min(oldest, start);
    }
    return oldest;
  }

  /** A buffer in flight was stored (or dropped): it becomes idle and frees its place. */
  public synchronized void endFlight(ByteBuffer buffer) {
    inFlight--;
    Long start = flightStarts.remove(buffer);
    if (start != null) {
      long took = System.nanoTime() - start;
      meanFlightNanos = meanFlightNanos < 0 ? took : meanFlightNanos + (took - meanFlightNanos) / 4;
    }
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
    flightStarts.clear();
    notifyAll();
  }
}
