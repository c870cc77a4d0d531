package org.spongefiles.leaky;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Deep copies of Writables of one class through their own serialization, with reused buffers: what
 * a reducer must do to keep an object Hadoop will overwrite. Not thread-safe.
 */
public final class WritableCopier<T extends Writable> {
  private final Class<T> type;
  private final Configuration conf;
  private final DataOutputBuffer out = new DataOutputBuffer();
  private final DataInputBuffer in = new DataInputBuffer();

  public WritableCopier(Class<T> type, Configuration conf) {
    this.type = Objects.requireNonNull(type, "type cannot be null");
    this.conf = conf;
  }

  /** A new instance of the class (its no-argument constructor, configured when Configurable). */
  public T newInstance() {
    return ReflectionUtils.newInstance(type, conf);
  }

  /** A new object equal to {@code source}. */
  public T copy(T source) {
    try {
      out.reset();
      source.write(out);
      in.reset(out.getData(), out.getLength());
      T copy = newInstance();
      copy.readFields(in);
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + source + " of " + type.getName(), e);
    }
  }

  public Class<T> type() {
    return type;
  }
}
