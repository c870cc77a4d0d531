package org.spongefiles.leaky;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.WritableComparable;

/** A key whose hash codes collide on purpose: only seven distinct hashes for any number of ids. */
public final class CollidingKey implements WritableComparable<CollidingKey> {
  private long id;

  public CollidingKey() {}

  public CollidingKey(long id) {
    this.id = id;
  }

  public CollidingKey set(long id) {
    this.id = id;
    return this;
  }

  public long id() {
    return id;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeLong(id);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    id = in.readLong();
  }

  @Override
  public int compareTo(CollidingKey other) {
    return Long.compare(id, other.id);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CollidingKey && ((CollidingKey) other).id == id;
  }

  @Override
  public int hashCode() {
    return (int) Math.floorMod(id, 7L);
  }

  @Override
  public String toString() {
    return "key-" + id;
  }
}
