package org.spongefiles.core.wire;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Bounds-checked reading and writing of the primitive fields of message bodies. */
final class Codec {
  private Codec() {}

  static void putString(ByteBuffer out, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > 0xffff) {
      throw new IllegalArgumentException("string of " + bytes.length + " bytes is too long");
    }
    out.putShort((short) bytes.length);
    out.put(bytes);
  }

  static int stringSize(String value) {
    return 2 + value.getBytes(StandardCharsets.UTF_8).length;
  }

  static void putBytes(ByteBuffer out, byte[] value) {
    out.putShort((short) value.length);
    out.put(value);
  }

  static String getString(ByteBuffer in, String peer, String field) throws WireException {
    return new String(getBytes(in, peer, field), StandardCharsets.UTF_8);
  }

  static byte[] getBytes(ByteBuffer in, String peer, String field) throws WireException {
    int length = getShort(in, peer, field) & 0xffff;
    if (in.remaining() < length) {
      throw truncated(peer, field);
    }
    byte[] bytes = new byte[length];
    in.get(bytes);
    return bytes;
  }

  static short getShort(ByteBuffer in, String peer, String field) throws WireException {
    try {
      return in.getShort();
    } catch (BufferUnderflowException e) {
      throw truncated(peer, field);
    }
  }

  static int getInt(ByteBuffer in, String peer, String field) throws WireException {
    try {
      return in.getInt();
    } catch (BufferUnderflowException e) {
      throw truncated(peer, field);
    }
  }

  static long getLong(ByteBuffer in, String peer, String field) throws WireException {
    try {
      return in.getLong();
    } catch (BufferUnderflowException e) {
      throw truncated(peer, field);
    }
  }

  static byte getByte(ByteBuffer in, String peer, String field) throws WireException {
    try {
      return in.get();
    } catch (BufferUnderflowException e) {
      throw truncated(peer, field);
    }
  }

  /** A count read from the wire, checked against what the rest of the body can hold. */
  static int getCount(ByteBuffer in, int bytesPerItem, String peer, String field)
      throws WireException {
    int count = getInt(in, peer, field);
    if (count < 0 || (long) count * bytesPerItem > in.remaining()) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME,
          peer,
          field + " count " + count + " does not fit the " + in.remaining() + " bytes that follow");
    }
    return count;
  }

  static void requireEnd(ByteBuffer in, String peer, String message) throws WireException {
    if (in.hasRemaining()) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME,
          peer,
          in.remaining() + " unexpected bytes after the body of " + message);
    }
  }

  private static WireException truncated(String peer, String field) {
    return new WireException(ErrorCode.MALFORMED_FRAME, peer, "body ends before " + field);
  }
}
