package org.spongefiles.core.io;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Direct buffers for readers' windows, kept for the next reader when one closes, so opening a
 * reader neither allocates nor zeroes a chunk of memory. At most {@code maxIdle} buffers wait idle;
 * the rest are left to the garbage collector.
 */
public final class ReadBuffers {
  private final int maxIdle;
  private final Map<Integer, Deque<ByteBuffer>> idle = new HashMap<>();
  private int idleCount;

  public ReadBuffers(int maxIdle) {
    this.maxIdle = maxIdle;
  }

  /** A cleared direct buffer of exactly {@code size} bytes. */
  public synchronized ByteBuffer take(int size) {
    Deque<ByteBuffer> sized = idle.get(size);
    ByteBuffer buffer = sized == null ? null : sized.pollFirst();
    if (buffer == null) {
      return ByteBuffer.allocateDirect(size);
    }
    idleCount--;
    buffer.clear();
    return buffer;
  }

  public synchronized void giveBack(ByteBuffer buffer) {
    if (buffer != null && idleCount < maxIdle) {
      idle.computeIfAbsent(buffer.capacity(), k -> new ArrayDeque<>()).addFirst(buffer);
      idleCount++;
    }
  }

  public synchronized void clear() {
    idle.clear();
    idleCount = 0;
  }
}
