package org.spongefiles.workloads.median;

import java.util.function.LongPredicate;
import org.spongefiles.testkit.data.NumbersGenerator;

/**
 * What {@link MedianJob} must answer, computed from the generator instead of a job: kept apart from
 * the job's classes, which tasks load from the job's jar without the generator.
 */
public final class MedianReference {
  private MedianReference() {}

  /**
   * The job's output for {@code numbers} (one line per partition, its lower median and its count);
   * fills in each partition's count, as {@link MedianJob#create} takes them.
   */
  public static String output(NumbersGenerator numbers, long[] counts) {
    StringBuilder text = new StringBuilder();
    for (int p = 0; p < counts.length; p++) {
      int partition = p;
      LongPredicate mine = value -> MedianJob.partition(value, counts.length) == partition;
      counts[p] = numbers.count(mine);
      text.append(NumbersGenerator.format(numbers.lowerMedian(mine)))
          .append('\t')
          .append(counts[p])
          .append('\n');
    }
    return text.toString();
  }
}
