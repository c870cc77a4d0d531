package org.spongefiles.merger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigException;

/**
 * The read memory of one merge: each SpongeFile segment costs two read windows (one read ahead) and
 * a buffer of the same size in front of them, plus the decompressor's buffers when map outputs are
 * compressed and the decryptor's when intermediate data is encrypted; {@code
 * sponge.merger.read.buffer.total} bounds their sum, which bounds how many segments one merge reads
 * at once.
 */
final class ReadBudget {
  /** What a decompressor and its stream hold, about: Hadoop's zlib and its 64 KiB buffers. */
  static final int CODEC_ALLOWANCE = 128 << 10;

  private final long total;
  private final int window;
  private final long perSegment;

  private ReadBudget(long total, int window, long perSegment) {
    this.total = total;
    this.window = window;
    this.perSegment = perSegment;
  }

  /**
   * The budget for the readers of {@code task}, whose windows it sizes.
   *
   * @throws ConfigException when the total does not hold two segments
   */
  static ReadBudget from(Configuration conf, SpongeTask task, boolean compressed) {
    long requested = MergerOptions.READ_BUFFER_SIZE.get(conf);
    long total = MergerOptions.READ_BUFFER_TOTAL.get(conf);
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
    return new ReadBudget(total, window, perSegment);
  }

  /** Bytes of one read window, as the readers will use it. */
  int window() {
    return window;
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
