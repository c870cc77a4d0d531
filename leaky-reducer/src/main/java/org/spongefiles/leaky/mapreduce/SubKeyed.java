package org.spongefiles.leaky.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.io.Writable;

/**
 * A map output value for grouping by a sub-key inside a reduce call: the sub-key (control
 * information, deserialized by the reducer) followed by the value (data, kept as bytes until its
 * sub-group is iterated). Subclass it with concrete types and a no-argument constructor:
 *
 * <pre>{@code
 * public static final class SubnetCountry extends SubKeyed<Text, Text> {
 *   public SubnetCountry() {
 *     super(new Text(), new Text());
 *   }
 * }
 * }</pre>
 *
 * <p>Serialized as the sub-key's {@code write} followed by the value's {@code write}.
 */
public abstract class SubKeyed<S extends Writable, V extends Writable> implements Writable {
  private final S subKey;
  private final V value;

  protected SubKeyed(S subKey, V value) {
    this.subKey = Objects.requireNonNull(subKey, "subKey cannot be null");
    this.value = Objects.requireNonNull(value, "value cannot be null");
  }

  /** The sub-key object, to read or to set before writing. */
  public S subKey() {
    return subKey;
  }

  /** The value object, to read or to set before writing. */
  public V value() {
    return value;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    subKey.write(out);
    value.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    subKey.readFields(in);
    value.readFields(in);
  }

  @Override
  public String toString() {
    return subKey + "=" + value;
  }
}
