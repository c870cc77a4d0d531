package org.spongefiles.merger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * A job whose one map output is larger than the whole heap of the JVM running it, run in a child
 * JVM with a small heap: {@code HugeOutputJob <stock|sponge> <records>}. One map emits {@code
 * records} records of a random 16-character key and a 1 KiB value; the reducer checks the keys
 * arrive sorted and digests every byte. Prints {@code OUTPUT}, {@code SPILLFILES} and {@code
 * COUNTER} lines, then {@code DONE}.
 */
public final class HugeOutputJob {
  static final int VALUE_BYTES = 1024;

  private HugeOutputJob() {}

  public static void main(String[] args) throws Exception {
    boolean sponge = args[0].equals("sponge");
    int records = Integer.parseInt(args[1]);
    try (LocalJobs jobs = new LocalJobs()) {
      Path input = jobs.newInput();
      Files.writeString(input.resolve("count.txt"), records + "\n");
      LocalJobs.Run run = jobs.run(HugeOutputJob::job, input, sponge, HugeOutputJob::settings);
      System.out.println("SUCCEEDED " + run.succeeded);
      System.out.println("OUTPUT " + new String(run.output, StandardCharsets.UTF_8).trim());
      System.out.println("SPILLFILES " + run.reduceSpillFiles.size());
      for (CounterGroup group : run.counters) {
        for (Counter counter : group) {
          System.out.println(
              "COUNTER\t" + group.getName() + "\t" + counter.getName() + "\t" + counter.getValue());
        }
      }
    }
    System.out.println("DONE");
  }

  private static void settings(Configuration conf) {
    // The merger sizes its memory from the real heap of this JVM.
    conf.unset("mapreduce.reduce.memory.totalbytes");
    conf.setInt("mapreduce.task.io.sort.mb", 16);
  }

  static Job job(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "one map output larger than the heap");
    job.setJarByClass(HugeOutputJob.class);
    job.setMapperClass(Generate.class);
    job.setReducerClass(Digest.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(BytesWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
    return job;
  }

  public static final class Generate extends Mapper<LongWritable, Text, Text, BytesWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      int records = Integer.parseInt(line.toString().trim());
      SplittableRandom random = new SplittableRandom(42);
      Text key = new Text();
      byte[] value = new byte[VALUE_BYTES];
      for (int i = 0; i < records; i++) {
        key.set(String.format("%016x", random.nextLong()));
        random.nextBytes(value);
        context.write(key, new BytesWritable(value));
      }
    }
  }

  public static final class Digest extends Reducer<Text, BytesWritable, Text, NullWritable> {
    private final CRC32 crc = new CRC32();
    private Text previous;
    private long records;
    private long unsorted;

    @Override
    protected void reduce(Text key, Iterable<BytesWritable> values, Context context) {
      if (previous != null && previous.compareTo(key) >= 0) {
        unsorted++;
      }
      previous = new Text(key);
      for (BytesWritable value : values) {
        crc.update(key.getBytes(), 0, key.getLength());
        crc.update(value.getBytes(), 0, value.getLength());
        records++;
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      context.write(
          new Text("records=" + records + " unsorted=" + unsorted + " crc=" + crc.getValue()),
          NullWritable.get());
    }
  }
}
