package org.spongefiles.leaky;

import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;

/**
 * Values to bytes and back: serializes a value into a reused buffer, and deserializes a value's
 * bytes into a reused object, checking that {@code readFields} consumed exactly those bytes (a
 * mismatch means the bytes were not written by this value class).
 */
final class ValueCodec<V extends Writable> {
  private final DataOutputBuffer out = new DataOutputBuffer();
  private final DataInputBuffer in = new DataInputBuffer();

  /** Serializes {@code value}; the bytes are {@link #bytes()} up to {@link #length()}. */
  void serialize(V value) throws IOException {
    out.reset();
    value.write(out);
  }

  byte[] bytes() {
    return out.getData();
  }

  int length() {
    return out.getLength();
  }

  /** Reads {@code view}'s bytes into {@code target}. */
  void deserialize(ByteView view, V target, Object key) throws IOException {
    in.reset(view.bytes, view.offset, view.length);
    target.readFields(in);
    int consumed = in.getPosition() - view.offset;
    if (consumed != view.length) {
      throw new IOException(
          "A value of key "
              + key
              + " is "
              + view.length
              + " bytes but "
              + target.getClass().getName()
              + ".readFields consumed "
              + consumed
              + ": the bytes were not written by that class");
    }
  }
}
