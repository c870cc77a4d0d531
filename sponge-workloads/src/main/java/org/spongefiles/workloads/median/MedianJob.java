package org.spongefiles.workloads.median;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The SpongeFiles paper's median job: every number (a 16-digit line of {@link
 * org.spongefiles.testkit.data.NumbersGenerator}) is a key, so the shuffle sorts them and a reducer
 * walks them in order to the lower median, never holding more than one. With several reducers,
 * numbers are spread by {@link #partition} and each reducer finds the median of its share. A
 * reducer must know how many numbers it gets ({@value #COUNTS}, one per partition); the output is
 * {@code <median>\t<count>} per reducer.
 */
public final class MedianJob {
  /** Comma-separated count of numbers per partition. */
  public static final String COUNTS = "median.counts";

  private MedianJob() {}

  public static Job create(Configuration conf, Path input, Path output, long[] counts)
      throws IOException {
    Job job = Job.getInstance(conf, "median of " + Arrays.stream(counts).sum() + " numbers");
    job.getConfiguration()
        .setStrings(COUNTS, Arrays.stream(counts).mapToObj(Long::toString).toArray(String[]::new));
    job.setJarByClass(MedianJob.class);
    job.setMapperClass(NumberMapper.class);
    job.setPartitionerClass(NumberPartitioner.class);
    job.setReducerClass(MedianReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(NullWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setNumReduceTasks(counts.length);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /** The reducer of {@code value} among {@code partitions}: a hash, so shares are even. */
  public static int partition(long value, int partitions) {
    long mixed = value * 0x9E3779B97F4A7C15L;
    return (int) Long.remainderUnsigned(mixed ^ (mixed >>> 29), partitions);
  }

  static long parse(Text number) {
    byte[] bytes = number.getBytes();
    long value = 0;
    for (int i = 0; i < number.getLength(); i++) {
      value = value * 10 + (bytes[i] - '0');
    }
    return value;
  }

  /** A line is the key; nothing else travels. */
  public static final class NumberMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      context.write(line, NullWritable.get());
    }
  }

  public static final class NumberPartitioner extends Partitioner<Text, NullWritable> {
    @Override
    public int getPartition(Text number, NullWritable nothing, int partitions) {
      return partitions == 1 ? 0 : partition(parse(number), partitions);
    }
  }

  /** Walks the sorted numbers of its partition to the one at rank (n - 1) / 2. */
  public static class MedianReducer extends Reducer<Text, NullWritable, Text, LongWritable> {
    private long expected;
    private long target;
    private long seen;
    private String median;

    @Override
    protected void setup(Context context) {
      int partition = context.getTaskAttemptID().getTaskID().getId();
      String[] counts = context.getConfiguration().getStrings(COUNTS);
      expected = Long.parseLong(counts[partition]);
      target = (expected - 1) / 2;
    }

    @Override
    protected void reduce(Text number, Iterable<NullWritable> copies, Context context) {
      for (NullWritable ignored : copies) {
        if (seen == target) {
          median = number.toString();
        }
        seen++;
      }
    }

    /**
     * Reduces every number, then checks the count and writes the median. Not in {@code cleanup}:
     * Hadoop calls that in a {@code finally}, where a failure would hide the one that stopped the
     * reduce (a spill that could not be read, say).
     */
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      super.run(context);
      if (seen != expected) {
        throw new IOException(
            "Reducer "
                + context.getTaskAttemptID()
                + " received "
                + seen
                + " numbers, expected "
                + expected);
      }
      if (median != null) {
        context.write(new Text(median), new LongWritable(seen));
      }
    }

    @Override
    protected void cleanup(Context context) {
      MedianProbe.reduceFinished(context);
    }
  }
}
