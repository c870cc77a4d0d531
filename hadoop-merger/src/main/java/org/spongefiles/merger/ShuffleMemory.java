package org.spongefiles.merger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.spongefiles.core.config.ConfigException;

/**
 * Hadoop's reduce-side memory model, read from Hadoop's keys with the meaning Hadoop gives them, so
 * a job tuned for the stock merger behaves the same way here:
 *
 * <ul>
 *   <li>{@code memoryLimit}: heap ({@code mapreduce.reduce.memory.totalbytes}, else the JVM's max)
 *       × {@code mapreduce.reduce.shuffle.input.buffer.percent} (0.70): map outputs held in memory.
 *   <li>{@code maxSingleShuffle}: memoryLimit × {@code
 *       mapreduce.reduce.shuffle.memory.limit.percent} (0.25): a larger map output streams straight
 *       into a SpongeFile. 0 sends every output there, as mapred-default.xml documents (Hadoop 3's
 *       merger refuses 0).
 *   <li>{@code mergeThreshold}: memoryLimit × {@code mapreduce.reduce.shuffle.merge.percent}
 *       (0.66): committed bytes that start an in-memory merge into a SpongeFile.
 *   <li>{@code mergeCount}: {@code mapreduce.reduce.merge.inmem.threshold} (1000): committed
 *       outputs that start one too; 0 or less turns the count off. mapred-default.xml documents it;
 *       Hadoop 3's merger no longer reads it, this one does.
 *   <li>{@code maxInMemReduce}: memoryLimit × {@code mapreduce.reduce.input.buffer.percent} (0):
 *       in-memory outputs the reduce may keep; the rest is merged into a SpongeFile first.
 * </ul>
 */
final class ShuffleMemory {
  static final float DEFAULT_SINGLE_SHUFFLE_PERCENT = 0.25f;
  static final int DEFAULT_MERGE_COUNT = 1000;

  final long memoryLimit;
  final long maxSingleShuffle;
  final long mergeThreshold;
  final int mergeCount;
  final long maxInMemReduce;

  private ShuffleMemory(
      long memoryLimit,
      long maxSingleShuffle,
      long mergeThreshold,
      int mergeCount,
      long maxInMemReduce) {
    this.memoryLimit = memoryLimit;
    this.maxSingleShuffle = maxSingleShuffle;
    this.mergeThreshold = mergeThreshold;
    this.mergeCount = mergeCount;
    this.maxInMemReduce = maxInMemReduce;
  }

  /**
   * Reads the model from {@code conf}.
   *
   * @throws ConfigException naming the Hadoop key whose value is out of range
   */
  static ShuffleMemory from(Configuration conf) {
    long heap =
        whole(
            conf,
            MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES,
            Runtime.getRuntime().maxMemory(),
            Long.MAX_VALUE);
    if (heap <= 0) {
      throw new ConfigException(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, heap, "must be positive");
    }
    long limit =
        (long)
            (heap
                * fraction(
                    conf,
                    MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
                    MRJobConfig.DEFAULT_SHUFFLE_INPUT_BUFFER_PERCENT));
    float singlePercent =
        fraction(conf, MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, DEFAULT_SINGLE_SHUFFLE_PERCENT);
    long single = Math.min((long) (limit * singlePercent), Integer.MAX_VALUE);
    float mergePercent =
        fraction(
            conf, MRJobConfig.SHUFFLE_MERGE_PERCENT, MRJobConfig.DEFAULT_SHUFFLE_MERGE_PERCENT);
    long threshold = (long) (limit * mergePercent);
    if (single > 0 && single >= threshold) {
      throw new ConfigException(
          MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT,
          singlePercent,
          "one map output may take "
              + single
              + " bytes, which must stay below the in-memory merge threshold of "
              + threshold
              + " bytes ("
              + MRJobConfig.SHUFFLE_MERGE_PERCENT
              + "="
              + mergePercent
              + ")");
    }
    int count =
        (int)
            whole(
                conf,
                MRJobConfig.REDUCE_MERGE_INMEM_THRESHOLD,
                DEFAULT_MERGE_COUNT,
                Integer.MAX_VALUE);
    long keep = (long) (limit * fraction(conf, MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0f));
    return new ShuffleMemory(limit, single, threshold, count, keep);
  }

  /**
   * A whole number, as Hadoop's merger reads it ({@link Configuration#getLong}: decimal or 0x hex,
   * no size suffix), with an error naming the key where Hadoop's would only quote the value.
   */
  private static long whole(Configuration conf, String key, long defaultValue, long max) {
    long value;
    try {
      value = conf.getLong(key, defaultValue);
    } catch (NumberFormatException e) {
      throw new ConfigException(
          key, conf.getTrimmed(key), "not a whole number (Hadoop reads it without a size suffix)");
    }
    if (value > max) {
      throw new ConfigException(key, value, "must be at most " + max);
    }
    return value;
  }

  private static float fraction(Configuration conf, String key, float defaultValue) {
    String raw = conf.getTrimmed(key);
    if (raw == null || raw.isEmpty()) {
      return defaultValue;
    }
    float value;
    try {
      value = Float.parseFloat(raw);
    } catch (NumberFormatException e) {
      throw new ConfigException(key, raw, "not a number");
    }
    if (!(value >= 0f && value <= 1f)) {
      throw new ConfigException(key, raw, "must be between 0.0 and 1.0");
    }
    return value;
  }

  @Override
  public String toString() {
    return "memoryLimit="
        + memoryLimit
        + ", maxSingleShuffle="
        + maxSingleShuffle
        + ", mergeThreshold="
        + mergeThreshold
        + ", mergeCount="
        + mergeCount
        + ", maxInMemReduce="
        + maxInMemReduce;
  }
}
