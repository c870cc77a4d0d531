package org.spongefiles.leaky.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;

/**
 * A map output key for {@link LeakyJoinReducer}: the join key and the side its record comes from.
 * Keys sort by side first, so a reduce task sees every build-side record of its partition before
 * any probe-side record; they hash by the join key alone, so Hadoop's default HashPartitioner sends
 * both sides of a join key to the same reducer. Subclass with a concrete key type:
 *
 * <pre>{@code
 * public static final class UrlKey extends JoinKey<Text> {
 *   public UrlKey() {
 *     super(new Text());
 *   }
 * }
 * }</pre>
 *
 * <p>Serialized as one side byte followed by the key's {@code write}. Register {@link Comparator}
 * for the subclass so the sort and the reducer compare bytes instead of deserializing keys:
 *
 * <pre>{@code
 * static {
 *   WritableComparator.define(UrlKey.class, new JoinKey.Comparator(UrlKey.class, Text.class));
 * }
 * }</pre>
 */
public abstract class JoinKey<K extends WritableComparable<?>>
    implements WritableComparable<JoinKey<K>> {
  /** The side buffered in the table. */
  public static final byte BUILD = 0;

  /** The side streamed against it. */
  public static final byte PROBE = 1;

  private final K key;
  private byte side;

  protected JoinKey(K key) {
    this.key = Objects.requireNonNull(key, "key cannot be null");
  }

  /** The join key object, to read or to set before writing. */
  public K key() {
    return key;
  }

  public byte side() {
    return side;
  }

  /** Sets the side ({@link #BUILD} or {@link #PROBE}); returns this key. */
  public JoinKey<K> side(byte side) {
    this.side = checkSide(side, "side");
    return this;
  }

  static byte checkSide(byte side, String what) {
    if (side != BUILD && side != PROBE) {
      throw new IllegalArgumentException(what + " must be BUILD (0) or PROBE (1), not " + side);
    }
    return side;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(side);
    key.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    byte read = in.readByte();
    if (read != BUILD && read != PROBE) {
      throw new IOException("corrupt join key: side byte " + read + " is neither 0 nor 1");
    }
    side = read;
    key.readFields(in);
  }

  @Override
  @SuppressWarnings("unchecked")
  public int compareTo(JoinKey<K> other) {
    int bySide = Byte.compare(side, other.side);
    // K is comparable to its own kind (Text is a WritableComparable<BinaryComparable>).
    return bySide != 0 ? bySide : ((Comparable<Object>) key).compareTo(other.key);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof JoinKey)) {
      return false;
    }
    JoinKey<?> that = (JoinKey<?>) other;
    return side == that.side && key.equals(that.key);
  }

  /** The join key's hash only: both sides of a key go to the same partition. */
  @Override
  public int hashCode() {
    return key.hashCode();
  }

  @Override
  public String toString() {
    return (side == BUILD ? "build:" : "probe:") + key;
  }

  /**
   * Compares serialized join keys: the side byte, then the key type's registered raw comparator on
   * the remaining bytes, or Hadoop's generic one (which deserializes both keys) when it has none.
   *
   * <p>Thread-safe: Hadoop hands the one registered instance to every thread that asks for the
   * job's sort comparator (the reduce side's in-memory and on-disk merge threads, LocalJobRunner's
   * map threads), and they compare at the same time. A key type without a raw comparator costs a
   * per-thread lookup per compare on top of deserializing both keys; registering a raw comparator
   * for it avoids both.
   */
  public static class Comparator extends WritableComparator {
    private final WritableComparator registered;

    /**
     * The generic comparator deserializes into fields of its own, so each thread has its own. The
     * lookup costs 5 to 6 ns on a 20 to 45 ns compare (JoinKeyComparatorBench); a cached
     * last-thread fast path was cheaper alone but several times slower with two threads comparing
     * at once, as its shared field bounces between cores.
     */
    private final ThreadLocal<WritableComparator> generic;

    @SuppressWarnings({"rawtypes", "unchecked"})
    public Comparator(
        Class<? extends JoinKey> joinKeyClass, Class<? extends WritableComparable> keyClass) {
      super(joinKeyClass);
      Objects.requireNonNull(keyClass, "keyClass cannot be null");
      WritableComparator keys = WritableComparator.get(keyClass);
      // get() returns the registered instance every time and creates a generic one per call.
      if (keys == WritableComparator.get(keyClass)) {
        this.registered = keys;
        this.generic = null;
      } else {
        this.registered = null;
        this.generic = ThreadLocal.withInitial(() -> WritableComparator.get(keyClass));
      }
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int bySide = Byte.compare(b1[s1], b2[s2]);
      if (bySide != 0) {
        return bySide;
      }
      WritableComparator keys = registered != null ? registered : generic.get();
      return keys.compare(b1, s1 + 1, l1 - 1, b2, s2 + 1, l2 - 1);
    }
  }
}
