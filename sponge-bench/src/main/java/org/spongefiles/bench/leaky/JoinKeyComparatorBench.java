package org.spongefiles.bench.leaky;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.spongefiles.leaky.mapreduce.JoinKey;
import org.spongefiles.workloads.BenchReport;

/**
 * What thread safety costs {@link JoinKey.Comparator} on the sort's hot path. A join key type with
 * no raw comparator of its own is compared by Hadoop's generic comparator, which deserializes into
 * fields of its own; the comparator now looks that instance up per thread. Baseline: the same
 * comparison through one shared generic comparator (what it did before, unsafe across threads).
 * Measured with the cheapest key to deserialize (one long), where a lookup weighs most, a composite
 * key (a Text and a long), and Text (a registered raw comparator, no lookup: the noise floor); then
 * two threads comparing through one instance at once (the case the lookup exists for).
 *
 * <pre>
 * mvn -B -q -DskipTests -Pbench package -pl sponge-bench -am \
 *     -Dbench.main=org.spongefiles.bench.leaky.JoinKeyComparatorBench
 * </pre>
 */
public final class JoinKeyComparatorBench {
  private static final int KEYS = 4096;
  private static final int COMPARES = 4_000_000;
  private static final int ROUNDS = 11;
  private static final int WARMUP_ROUNDS = 3;

  private JoinKeyComparatorBench() {}

  /** The cheapest key to deserialize. */
  public static final class LongKey implements WritableComparable<LongKey> {
    private long id;

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeLong(id);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      id = in.readLong();
    }

    @Override
    public int compareTo(LongKey other) {
      return Long.compare(id, other.id);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof LongKey && ((LongKey) other).id == id;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(id);
    }
  }

  /** A composite key: a URL and a day. */
  public static final class UrlDayKey implements WritableComparable<UrlDayKey> {
    private final Text url = new Text();
    private long day;

    @Override
    public void write(DataOutput out) throws IOException {
      url.write(out);
      out.writeLong(day);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      url.readFields(in);
      day = in.readLong();
    }

    @Override
    public int compareTo(UrlDayKey other) {
      int byUrl = url.compareTo(other.url);
      return byUrl != 0 ? byUrl : Long.compare(day, other.day);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof UrlDayKey && compareTo((UrlDayKey) other) == 0;
    }

    @Override
    public int hashCode() {
      return url.hashCode() * 31 + Long.hashCode(day);
    }
  }

  public static final class LongJoinKey extends JoinKey<LongKey> {
    public LongJoinKey() {
      super(new LongKey());
    }
  }

  public static final class UrlDayJoinKey extends JoinKey<UrlDayKey> {
    public UrlDayJoinKey() {
      super(new UrlDayKey());
    }
  }

  public static final class TextJoinKey extends JoinKey<Text> {
    public TextJoinKey() {
      super(new Text());
    }
  }

  /** The comparator before the fix: one inner comparator shared by every caller. */
  private static final class SharedInner extends WritableComparator {
    private final WritableComparator keys;

    @SuppressWarnings({"rawtypes", "unchecked"})
    SharedInner(Class<? extends JoinKey> joinKeyClass, Class<? extends WritableComparable> key) {
      super(joinKeyClass);
      this.keys = WritableComparator.get(key);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      int bySide = Byte.compare(b1[s1], b2[s2]);
      return bySide != 0 ? bySide : keys.compare(b1, s1 + 1, l1 - 1, b2, s2 + 1, l2 - 1);
    }
  }

  /** Serialized keys of one kind, back to back. */
  private static final class Keys {
    final byte[] bytes;
    final int[] starts = new int[KEYS];
    final int[] lengths = new int[KEYS];

    <J extends JoinKey<?>> Keys(
        J key, Consumer<SplittableRandom> randomize, SplittableRandom random) throws IOException {
      DataOutputBuffer out = new DataOutputBuffer();
      for (int i = 0; i < KEYS; i++) {
        randomize.accept(random);
        key.side(JoinKey.BUILD);
        starts[i] = out.getLength();
        key.write(out);
        lengths[i] = out.getLength() - starts[i];
      }
      bytes = Arrays.copyOf(out.getData(), out.getLength());
    }

    /** Nanoseconds per compare over {@link #COMPARES} pairs; the sum of signs defeats elision. */
    long[] run(RawComparator<?> comparator, int round) {
      long sum = 0;
      long start = System.nanoTime();
      for (int i = 0; i < COMPARES; i++) {
        int a = i & (KEYS - 1);
        int b = (i * 7 + round + 1) & (KEYS - 1);
        sum +=
            Integer.signum(
                comparator.compare(bytes, starts[a], lengths[a], bytes, starts[b], lengths[b]));
      }
      return new long[] {System.nanoTime() - start, sum};
    }
  }

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    BenchReport.info(
        "%d compares per round, %d rounds after %d warm-up rounds, median per compare",
        COMPARES, ROUNDS, WARMUP_ROUNDS);
    SplittableRandom random = new SplittableRandom(17);

    LongJoinKey longKey = new LongJoinKey();
    double longRatio =
        measure(
            "long",
            new Keys(longKey, r -> longKey.key().id = r.nextLong(), random),
            new SharedInner(LongJoinKey.class, LongKey.class),
            new JoinKey.Comparator(LongJoinKey.class, LongKey.class));
    concurrently(
        "long",
        new Keys(longKey, r -> longKey.key().id = r.nextLong(), random),
        new JoinKey.Comparator(LongJoinKey.class, LongKey.class));

    UrlDayJoinKey urlDay = new UrlDayJoinKey();
    double compositeRatio =
        measure(
            "url+day",
            new Keys(
                urlDay,
                r -> {
                  urlDay.key().url.set("http://example.org/page/" + r.nextInt(200));
                  urlDay.key().day = r.nextInt(30);
                },
                random),
            new SharedInner(UrlDayJoinKey.class, UrlDayKey.class),
            new JoinKey.Comparator(UrlDayJoinKey.class, UrlDayKey.class));

    TextJoinKey text = new TextJoinKey();
    double textRatio =
        measure(
            "text (registered)",
            new Keys(
                text, r -> text.key().set("http://example.org/page/" + r.nextInt(5000)), random),
            new SharedInner(TextJoinKey.class, Text.class),
            new JoinKey.Comparator(TextJoinKey.class, Text.class));

    BenchReport.bench(
        "join-key-compare-per-thread",
        Math.max(longRatio, compositeRatio),
        String.format(
            java.util.Locale.ROOT,
            "thread-safe/shared compare time: long %.3f, url+day %.3f, text %.3f (no lookup: noise)",
            longRatio,
            compositeRatio,
            textRatio));
  }

  /** Alternates the two comparators round by round; returns ours over the baseline (medians). */
  private static double measure(
      String name, Keys keys, RawComparator<?> shared, RawComparator<?> ours) {
    long[] baseline = new long[ROUNDS];
    long[] perThread = new long[ROUNDS];
    for (int round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      long[] a = keys.run(shared, round);
      long[] b = keys.run(ours, round);
      if (a[1] != b[1]) {
        throw new IllegalStateException(
            name + ": the comparators disagree (" + a[1] + " vs " + b[1] + ")");
      }
      if (round >= WARMUP_ROUNDS) {
        baseline[round - WARMUP_ROUNDS] = a[0];
        perThread[round - WARMUP_ROUNDS] = b[0];
      }
    }
    double before = median(baseline) / COMPARES;
    double after = median(perThread) / COMPARES;
    BenchReport.info(
        "%s: shared inner comparator %.1f ns/compare, per-thread lookup %.1f ns/compare",
        name, before, after);
    return after / before;
  }

  /** Two threads comparing through one instance at once, as Hadoop's merge threads do. */
  private static void concurrently(String name, Keys keys, RawComparator<?> ours)
      throws InterruptedException {
    double[] nanos = new double[2];
    Thread[] threads = new Thread[nanos.length];
    for (int t = 0; t < threads.length; t++) {
      int thread = t;
      threads[t] =
          new Thread(
              () -> {
                long[] rounds = new long[ROUNDS];
                for (int round = 0; round < ROUNDS; round++) {
                  rounds[round] = keys.run(ours, round)[0];
                }
                nanos[thread] = median(rounds) / COMPARES;
              });
    }
    for (Thread thread : threads) {
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    BenchReport.info(
        "%s, two threads at once on one instance: %.1f and %.1f ns/compare",
        name, nanos[0], nanos[1]);
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
