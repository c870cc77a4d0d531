package org.spongefiles.core.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Atomic access to the 4- and 8-byte words of a mapped region that other processes share. Every
 * shared word is read and written only through these methods, in native byte order, at aligned
 * offsets; mixing them with {@code ByteBuffer.getLong} would read another byte order.
 */
final class MappedWords {
  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle INTS =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

  private final ByteBuffer buffer;

  MappedWords(ByteBuffer buffer) {
    this.buffer = buffer.duplicate().order(ByteOrder.nativeOrder());
  }

  long getLong(int offset) {
    return (long) LONGS.getVolatile(buffer, offset);
  }

  void setLong(int offset, long value) {
    LONGS.setVolatile(buffer, offset, value);
  }

  boolean casLong(int offset, long expected, long value) {
    return LONGS.compareAndSet(buffer, offset, expected, value);
  }

  long addLong(int offset, long delta) {
    return (long) LONGS.getAndAdd(buffer, offset, delta);
  }

  int getInt(int offset) {
    return (int) INTS.getVolatile(buffer, offset);
  }

  void setInt(int offset, int value) {
    INTS.setVolatile(buffer, offset, value);
  }

  boolean casInt(int offset, int expected, int value) {
    return INTS.compareAndSet(buffer, offset, expected, value);
  }

  /** Plain byte access for the host table's strings. */
  ByteBuffer bytes() {
    return buffer.duplicate();
  }
}
