package org.spongefiles.merger;

import java.util.List;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.Validator;

/**
 * Keys of the SpongeFiles reduce-side merger. The shuffle memory itself is sized by Hadoop's own
 * keys (mapreduce.reduce.shuffle.input.buffer.percent and the others, see {@link ShuffleMemory}),
 * so a job's tuning keeps its meaning; these keys only cover what Hadoop has no key for.
 */
public final class MergerOptions implements OptionSet {

  public static final ConfigOption<Boolean> FALLBACK =
      ConfigOption.bool("sponge.merger.fallback", false)
          .describe(
              "What a reduce task does when SpongeFiles cannot be used at its start (an invalid"
                  + " sponge.* value, a missing pool directory, encrypted intermediate data without"
                  + " a spill key): false fails the task with a message naming the key; true logs a"
                  + " warning, runs Hadoop's own merger and counts"
                  + " SpongeFiles.FALLBACK_TO_HADOOP_MERGER.");

  public static final ConfigOption<Long> READ_BUFFER_SIZE =
      ConfigOption.bytes("sponge.merger.read.buffer.size", 64 << 10)
          .validate(Validator.bytesBetween(4 << 10, 256 << 20))
          .describe(
              "Smallest read window of one SpongeFile segment in a merge, rounded to whole"
                  + " checksum blocks and at most a chunk; a reader holds two (one read ahead, for"
                  + " chunks outside the pool) and a buffer of this size in front of them. A merge"
                  + " of fewer segments than sponge.merger.read.buffer.total holds at this size"
                  + " shares the total among them, up to a chunk per window, so reads from sponge"
                  + " servers and disks move more bytes each. Spills are written through a buffer"
                  + " of this size too.");

  public static final ConfigOption<Long> READ_BUFFER_TOTAL =
      ConfigOption.bytes("sponge.merger.read.buffer.total", 32 << 20)
          .validate(Validator.bytesBetween(64 << 10, 1L << 40))
          .describe(
              "Most bytes a merge may hold in read buffers across the SpongeFiles it reads at"
                  + " once. The final merge reads every segment in one round while their buffers"
                  + " fit at sponge.merger.read.buffer.size; past that it first merges the smallest"
                  + " segments into SpongeFiles, so memory stays bounded whatever the number of map"
                  + " outputs. A merge of fewer segments uses the total for larger windows.");

  private static final List<ConfigOption<?>> ALL =
      List.of(FALLBACK, READ_BUFFER_SIZE, READ_BUFFER_TOTAL);

  @Override
  public String title() {
    return "hadoop-merger: the reduce-side shuffle merge";
  }

  @Override
  public String summary() {
    return "Read by reduce tasks when mapreduce.job.reduce.shuffle.consumer.plugin.class is "
        + "org.spongefiles.merger.SpongeShuffle (set them in mapred-site.xml or the job), besides "
        + "every sponge-core key and Hadoop's own shuffle memory keys.";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 30;
  }
}
