package org.spongefiles.leaky;

import org.apache.hadoop.io.LongWritable;

/**
 * A long key whose hash codes collide on purpose: only seven distinct hashes for any number of ids.
 * Being a subclass, it gets Hadoop's deserializing comparator, not {@link LongWritable}'s raw one.
 */
public final class CollidingKey extends LongWritable {
  public CollidingKey() {}

  public CollidingKey(long id) {
    super(id);
  }

  public long id() {
    return get();
  }

  @Override
  public int hashCode() {
    return (int) Math.floorMod(get(), 7L);
  }

  @Override
  public String toString() {
    return "key-" + get();
  }
}
