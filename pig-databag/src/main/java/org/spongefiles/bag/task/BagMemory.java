package org.spongefiles.bag.task;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap a task's bags use besides the tuples they hold: the buffers of their run writers and
 * readers and the tuple each reader's merge head (or last answer) keeps. It is counted in the bags'
 * share of the heap ({@code sponge.pig.bag.memory}), so that bags do not each take their full share
 * of tuples on top of it: each bag spills itself past its part of what the share has left (see
 * {@link #tupleShare()}), and readers opened together for a merge shrink their buffers so that a
 * merge takes at most a quarter of the share.
 */
public final class BagMemory {
  /** Smallest reader buffer (a checksum block of sponge-core's default size and Pig's 8 KiB). */
  public static final int MIN_READ_BUFFER = 4 << 10;

  /** Bags always keep at least this part of the share for tuples, whatever readers hold. */
  private static final int TUPLE_FLOOR_DIVISOR = 4;

  /** A merge's readers together buffer at most this part of the share. */
  private static final int MERGE_DIVISOR = 4;

  private final long share;
  private final int readBuffer;
  private final AtomicLong held = new AtomicLong();

  /** {@code share}: the bags' bytes of the heap (0: no self-spilling); the configured buffer. */
  public BagMemory(long share, int readBuffer) {
    this.share = share;
    this.readBuffer = readBuffer;
  }

  /** The bags' share of the heap, in bytes; 0 when bags wait for Pig's memory manager. */
  public long share() {
    return share;
  }

  /**
   * What the share leaves for tuples now: the share less what the bags' readers and writers hold,
   * at least a quarter of it; 0 when the share is 0.
   */
  public long tupleShare() {
    return Math.max(share / TUPLE_FLOOR_DIVISOR, share - held.get());
  }

  /**
   * The buffer of each of {@code readers} readers opened together (a merge): the configured one,
   * smaller when they would together take more than a quarter of the share, never below {@value
   * #MIN_READ_BUFFER} bytes.
   */
  public int readBuffer(int readers) {
    if (share == 0 || readers <= 0) {
      return readBuffer;
    }
    long each = share / MERGE_DIVISOR / readers;
    return (int) Math.max(MIN_READ_BUFFER, Math.min(readBuffer, each));
  }

  /** Counts {@code bytes} more held by a reader or writer. */
  public void hold(long bytes) {
    held.addAndGet(bytes);
  }

  /** Counts {@code bytes} a reader or writer no longer holds. */
  public void free(long bytes) {
    held.addAndGet(-bytes);
  }

  /** Bytes the task's readers and writers hold now. */
  public long held() {
    return held.get();
  }
}
