package org.spongefiles.leaky.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.spongefiles.leaky.CollidingKey;

class JoinKeyTest {
  public static final class UrlKey extends JoinKey<Text> {
    public UrlKey() {
      super(new Text());
    }
  }

  /**
   * A join key whose key type has no raw comparator of its own, registered as the docs say: Hadoop
   * compares such keys by deserializing them.
   */
  public static final class IdKey extends JoinKey<CollidingKey> {
    static {
      WritableComparator.define(
          IdKey.class, new JoinKey.Comparator(IdKey.class, CollidingKey.class));
    }

    public IdKey() {
      super(new CollidingKey());
    }
  }

  @Test
  void theRawComparatorOrdersLikeCompareToWithTheBuildSideFirst() throws IOException {
    JoinKey.Comparator comparator = new JoinKey.Comparator(UrlKey.class, Text.class);
    SplittableRandom random = new SplittableRandom(3);
    UrlKey a = new UrlKey();
    UrlKey b = new UrlKey();
    DataOutputBuffer one = new DataOutputBuffer();
    DataOutputBuffer two = new DataOutputBuffer();
    for (int i = 0; i < 5_000; i++) {
      a.side((byte) random.nextInt(2)).key().set("k" + random.nextInt(50));
      b.side((byte) random.nextInt(2)).key().set("k" + random.nextInt(50));
      int raw = compareSerialized(comparator, a, one, b, two);
      assertThat(Integer.signum(raw))
          .as("%s vs %s", a, b)
          .isEqualTo(Integer.signum(a.compareTo(b)));
      if (a.side() != b.side()) {
        assertThat(raw < 0).isEqualTo(a.side() == JoinKey.BUILD);
      }
      if (a.key().equals(b.key())) {
        assertThat(a.hashCode()).as("both sides of a key hash alike").isEqualTo(b.hashCode());
      }
    }
  }

  @Test
  void aCorruptSideByteIsReported() {
    DataInputBuffer in = new DataInputBuffer();
    in.reset(new byte[] {7, 1, 'x'}, 3);
    assertThatThrownBy(() -> new UrlKey().readFields(in))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("side byte 7");
    assertThatThrownBy(() -> new UrlKey().side((byte) 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("side must be BUILD (0) or PROBE (1), not 2");
  }

  /**
   * Hadoop's in-memory and on-disk merge threads (and LocalJobRunner's map threads) each call
   * getOutputKeyComparator() and get the one registered instance; they compare at the same time.
   */
  @Test
  void aRegisteredComparatorOfADeserializedKeyTypeIsSafeAcrossThreads() throws Exception {
    JobConf job = new JobConf(false);
    job.setMapOutputKeyClass(IdKey.class);
    @SuppressWarnings("unchecked")
    RawComparator<IdKey> shared = (RawComparator<IdKey>) job.getOutputKeyComparator();
    assertThat(shared).isInstanceOf(JoinKey.Comparator.class);
    assertThat(job.getOutputKeyComparator()).as("one instance for every caller").isSameAs(shared);

    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> wrong = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        wrong.add(pool.submit(() -> misorderedPairs(shared, seed, 200_000)));
      }
      for (Future<Integer> misordered : wrong) {
        assertThat(misordered.get()).as("pairs compared unlike compareTo").isZero();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Serializes {@code a} into {@code one} and {@code b} into {@code two}; compares the bytes. */
  private static int compareSerialized(
      RawComparator<?> comparator,
      JoinKey<?> a,
      DataOutputBuffer one,
      JoinKey<?> b,
      DataOutputBuffer two)
      throws IOException {
    one.reset();
    two.reset();
    a.write(one);
    b.write(two);
    return comparator.compare(one.getData(), 0, one.getLength(), two.getData(), 0, two.getLength());
  }

  /** Compares random serialized pairs; returns how many disagree with {@code compareTo}. */
  private static int misorderedPairs(RawComparator<IdKey> comparator, long seed, int pairs)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    IdKey a = new IdKey();
    IdKey b = new IdKey();
    DataOutputBuffer one = new DataOutputBuffer();
    DataOutputBuffer two = new DataOutputBuffer();
    int misordered = 0;
    for (int i = 0; i < pairs; i++) {
      a.side((byte) random.nextInt(2)).key().set(random.nextLong());
      b.side(a.side()).key().set(random.nextLong());
      int raw = compareSerialized(comparator, a, one, b, two);
      if (Integer.signum(raw) != Integer.signum(a.compareTo(b))) {
        misordered++;
      }
    }
    return misordered;
  }
}
