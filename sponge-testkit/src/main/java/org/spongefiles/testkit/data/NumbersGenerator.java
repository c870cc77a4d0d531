package org.spongefiles.testkit.data;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * Numbers for the median job (SpongeFiles §4.2: one reducer computes the median of N numbers), as
 * text files of one 16-digit zero-padded number per line, so that the byte order of a line is the
 * numeric order of its number. The same numbers can be replayed without the files, which is how the
 * expected median is computed: by counting in buckets, then sorting the one bucket that holds it.
 *
 * <ul>
 *   <li>{@link Shape#UNIFORM}: uniform in [0, 10^15).
 *   <li>{@link Shape#SKEWED}: 30% of the numbers are one of 16 hot values (each repeated millions
 *       of times in a large set, so some reduce groups are huge), the rest are cubes of uniform
 *       draws, crowded towards 0.
 * </ul>
 */
public final class NumbersGenerator {
  /** The distribution of the numbers. */
  public enum Shape {
    UNIFORM,
    SKEWED
  }

  /** Bytes of one line: 16 digits and a newline. */
  public static final int LINE_BYTES = 17;

  static final long BOUND = 1_000_000_000_000_000L;
  private static final int HOT_VALUES = 16;
  private static final double HOT_SHARE = 0.3;
  private static final int BUCKET_SHIFT = 30;

  private final long count;
  private final int files;
  private final Shape shape;
  private final long seed;

  public NumbersGenerator(long count, int files, Shape shape, long seed) {
    if (count < 1) {
      throw new IllegalArgumentException("count : " + count + " (expected: > 0)");
    }
    if (files < 1 || files > count) {
      throw new IllegalArgumentException(
          "files : " + files + " (expected: between 1 and the count " + count + ")");
    }
    this.count = count;
    this.files = files;
    this.shape = shape;
    this.seed = seed;
  }

  public long count() {
    return count;
  }

  /** Writes {@code numbers-<i>.txt} files into {@code dir}; returns them in order. */
  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    byte[] line = new byte[LINE_BYTES];
    line[LINE_BYTES - 1] = '\n';
    for (int f = 0; f < files; f++) {
      Path file = dir.resolve(String.format("numbers-%03d.txt", f));
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
        SplittableRandom random = random(f);
        for (long i = countInFile(f); i > 0; i--) {
          format(next(random), line);
          out.write(line);
        }
      }
      written.add(file);
    }
    return written;
  }

  /** Every number, in file order. */
  public void forEach(LongConsumer action) {
    for (int f = 0; f < files; f++) {
      forEachInFile(f, action);
    }
  }

  /** How many numbers {@code include} accepts. */
  public long count(LongPredicate include) {
    long[] n = new long[1];
    forEach(
        value -> {
          if (include.test(value)) {
            n[0]++;
          }
        });
    return n[0];
  }

  /**
   * The lower median of the numbers {@code include} accepts: the one at rank {@code (n - 1) / 2} in
   * ascending order, counted in two passes over the replayed numbers.
   */
  public long lowerMedian(LongPredicate include) {
    long[] buckets = new long[(int) (BOUND >>> BUCKET_SHIFT) + 1];
    long[] n = new long[1];
    forEach(
        value -> {
          if (include.test(value)) {
            buckets[(int) (value >>> BUCKET_SHIFT)]++;
            n[0]++;
          }
        });
    if (n[0] == 0) {
      throw new IllegalArgumentException("no number is accepted");
    }
    long rank = (n[0] - 1) / 2;
    int bucket = 0;
    long before = 0;
    while (before + buckets[bucket] <= rank) {
      before += buckets[bucket++];
    }
    long[] inBucket = new long[(int) buckets[bucket]];
    int[] filled = new int[1];
    int target = bucket;
    forEach(
        value -> {
          if (include.test(value) && (int) (value >>> BUCKET_SHIFT) == target) {
            inBucket[filled[0]++] = value;
          }
        });
    Arrays.sort(inBucket);
    return inBucket[(int) (rank - before)];
  }

  /** The number as its line is written: 16 digits, zero-padded. */
  public static String format(long value) {
    byte[] line = new byte[LINE_BYTES];
    format(value, line);
    return new String(line, 0, LINE_BYTES - 1, java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static void format(long value, byte[] line) {
    long v = value;
    for (int i = LINE_BYTES - 2; i >= 0; i--) {
      line[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
  }

  private void forEachInFile(int file, LongConsumer action) {
    SplittableRandom random = random(file);
    for (long i = countInFile(file); i > 0; i--) {
      action.accept(next(random));
    }
  }

  private long countInFile(int file) {
    return count / files + (file < count % files ? 1 : 0);
  }

  private SplittableRandom random(int file) {
    return new SplittableRandom(seed * 1_000_003L + file);
  }

  private long next(SplittableRandom random) {
    if (shape == Shape.SKEWED) {
      if (random.nextDouble() < HOT_SHARE) {
        return hotValue(random.nextInt(HOT_VALUES));
      }
      double u = random.nextDouble();
      return (long) (u * u * u * BOUND);
    }
    return random.nextLong(BOUND);
  }

  private static long hotValue(int i) {
    return (i + 1) * 12_345_678_901L;
  }
}
