package org.spongefiles.merger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigValues;

/**
 * The read memory of one merge: each SpongeFile segment costs two read windows (one read ahead) and
 * a buffer of the requested window size in front of them, plus the decompressor's buffers when map
 * outputs are compressed and the decryptor's when intermediate data is encrypted; {@code
 * sponge.merger.read.buffer.total} bounds their sum. At the requested window size that bounds how
 * many segments one merge reads at once ({@link #fanIn()}); a merge of fewer segments shares the
 * whole budget among them ({@link #window(int)}), so each read of a chunk outside the pool (a round
 * trip to a sponge server, a read of the local disk) moves more bytes.
 */
final class ReadBudget {
  /** What a decompressor and its stream hold, about: Hadoop's zlib and its 64 KiB buffers. */
  static final int CODEC_ALLOWANCE = 128 << 10;

  private final SpongeTask task;
  private final long total;
  private final int window;
  private final long perSegment;

  private ReadBudget(SpongeTask task, long total, int window, long perSegment) {
    this.task = task;
    this.total = total;
    this.window = window;
    this.perSegment = perSegment;
  }

  /**
   * The budget for the readers of {@code task}, whose windows it sizes, from the merger's parsed
   * {@code values} and Hadoop's encryption keys in {@code conf}.
   *
   * @throws ConfigException when the total does not hold two segments
   */
  static ReadBudget from(
      ConfigValues values, Configuration conf, SpongeTask task, boolean compressed) {
    long requested = values.get(MergerOptions.READ_BUFFER_SIZE);
    long total = values.get(MergerOptions.READ_BUFFER_TOTAL);
    int window = task.readWindow(requested);
    long perSegment = 3L * window;
    if (compressed) {
      perSegment += CODEC_ALLOWANCE;
    }
    if (CryptoUtils.isEncryptedSpillEnabled(conf)) {
      perSegment +=
          2L
              * 1024
              * conf.getInt(
                  MRJobConfig.MR_ENCRYPTED_INTERMEDIATE_DATA_BUFFER_KB,
                  MRJobConfig.DEFAULT_MR_ENCRYPTED_INTERMEDIATE_DATA_BUFFER_KB);
    }
    if (total / perSegment < 2) {
      throw new ConfigException(
          MergerOptions.READ_BUFFER_TOTAL.key(),
          ByteSize.format(total),
          "must hold the read buffers of at least two segments ("
              + ByteSize.format(2 * perSegment)
              + " with "
              + MergerOptions.READ_BUFFER_SIZE.key()
              + "="
              + ByteSize.format(requested)
              + ")");
    }
    return new ReadBudget(task, total, window, perSegment);
  }

  /** Bytes of one read window at the requested size, as the readers will use it. */
  int window() {
    return window;
  }

  /**
   * The read window of each of {@code segments} SpongeFiles merged at once: their share of the
   * budget, less the buffers in front of the windows, split between the two windows; rounded down
   * to whole checksum blocks, at least {@link #window()} and at most a chunk. With at most {@link
   * #fanIn()} segments their buffers stay within the budget.
   */
  int window(int segments) {
    long inFront = perSegment - 2L * window;
    long share = total / Math.max(1, segments) - inFront;
    return Math.max(window, task.readWindow(share / 2));
  }

  /** Most SpongeFile segments one merge reads at once. */
  int fanIn() {
    return (int) Math.min(Integer.MAX_VALUE, total / perSegment);
  }

  long perSegment() {
    return perSegment;
  }

  @Override
  public String toString() {
    return fanIn()
        + " segments of "
        + ByteSize.format(perSegment)
        + " in "
        + ByteSize.format(total);
  }
}
