package org.spongefiles.merger;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringTokenizer;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/** The jobs of the merger's end-to-end tests, their inputs, and their results computed directly. */
final class TestJobs {
  private TestJobs() {}

  // ---------------------------------------------------------------- word count (new API)

  /** Writes {@code files} text files of skewed words; returns the count of every word. */
  static Map<String, Integer> writeWords(Path dir, int files, int wordsPerFile, int vocabulary)
      throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(20140622);
    for (int f = 0; f < files; f++) {
      try (BufferedWriter out =
          Files.newBufferedWriter(dir.resolve("words-" + f + ".txt"), StandardCharsets.UTF_8)) {
        int words = wordsPerFile * (f + 1);
        for (int i = 0; i < words; i++) {
          // Skewed: the square of a uniform draw favours the low word numbers.
          double u = random.nextDouble();
          String word = "w" + (int) (u * u * vocabulary);
          counts.merge(word, 1, Integer::sum);
          out.write(word);
          out.write(i % 12 == 11 ? '\n' : ' ');
        }
      }
    }
    return counts;
  }

  static String render(Map<String, Integer> counts) {
    StringBuilder text = new StringBuilder();
    counts.forEach((k, v) -> text.append(k).append('\t').append(v).append('\n'));
    return text.toString();
  }

  public static final class TokenMapper extends Mapper<Object, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(Object key, Text value, Context context)
        throws IOException, InterruptedException {
      StringTokenizer tokens = new StringTokenizer(value.toString());
      while (tokens.hasMoreTokens()) {
        word.set(tokens.nextToken());
        context.write(word, one);
      }
    }
  }

  public static final class SumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    private final IntWritable sum = new IntWritable();

    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int total = 0;
      for (IntWritable value : values) {
        total += value.get();
      }
      sum.set(total);
      context.write(key, sum);
    }
  }

  static Job wordCount(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "word count");
    job.setJarByClass(TestJobs.class);
    job.setMapperClass(TokenMapper.class);
    job.setCombinerClass(SumReducer.class);
    job.setReducerClass(SumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
    return job;
  }

  // ---------------------------------------------------------------- word count (old API)

  public static final class OldTokenMapper extends MapReduceBase
      implements org.apache.hadoop.mapred.Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    public void map(
        LongWritable key, Text value, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws IOException {
      StringTokenizer tokens = new StringTokenizer(value.toString());
      while (tokens.hasMoreTokens()) {
        word.set(tokens.nextToken());
        out.collect(word, one);
      }
    }
  }

  public static final class OldSumReducer extends MapReduceBase
      implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    public void reduce(
        Text key,
        Iterator<IntWritable> values,
        OutputCollector<Text, IntWritable> out,
        Reporter reporter)
        throws IOException {
      int total = 0;
      while (values.hasNext()) {
        total += values.next().get();
      }
      out.collect(key, new IntWritable(total));
    }
  }

  static Job oldApiWordCount(Configuration conf, Path input, Path output) throws IOException {
    JobConf job = new JobConf(conf, TestJobs.class);
    job.setJobName("word count, old API");
    job.setMapperClass(OldTokenMapper.class);
    job.setCombinerClass(OldSumReducer.class);
    job.setReducerClass(OldSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(1);
    org.apache.hadoop.mapred.FileInputFormat.addInputPath(
        job, new org.apache.hadoop.fs.Path(input.toUri()));
    org.apache.hadoop.mapred.FileOutputFormat.setOutputPath(
        job, new org.apache.hadoop.fs.Path(output.toUri()));
    return Job.getInstance(job);
  }

  // ---------------------------------------------------------------- secondary sort

  /**
   * Writes lines {@code group value}, every value unique within its group; returns each group's
   * values in ascending order, as the secondary sort must deliver them.
   */
  static Map<String, String> writeGroups(Path dir, int groups, int values) throws IOException {
    Map<String, java.util.TreeSet<Integer>> byGroup = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(7);
    for (int f = 0; f < 3; f++) {
      try (BufferedWriter out =
          Files.newBufferedWriter(dir.resolve("groups-" + f + ".txt"), StandardCharsets.UTF_8)) {
        for (int i = 0; i < values; i++) {
          String group = "g" + random.nextInt(groups);
          int value;
          do {
            value = random.nextInt(1_000_000_000);
          } while (!byGroup.computeIfAbsent(group, g -> new java.util.TreeSet<>()).add(value));
          out.write(group + " " + value + "\n");
        }
      }
    }
    Map<String, String> expected = new TreeMap<>();
    byGroup.forEach(
        (g, v) ->
            expected.put(
                g,
                v.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
    return expected;
  }

  /** Composite key {@code group \t zero-padded value}: sorts by group, then by value. */
  public static final class CompositeMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final Text key = new Text();
    private final Text value = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] fields = line.toString().split(" ");
      key.set(fields[0] + "\t" + String.format("%010d", Integer.parseInt(fields[1])));
      value.set(fields[1]);
      context.write(key, value);
    }
  }

  static String groupOf(Text composite) {
    String text = composite.toString();
    return text.substring(0, text.indexOf('\t'));
  }

  public static final class GroupPartitioner extends Partitioner<Text, Text> {
    @Override
    public int getPartition(Text key, Text value, int partitions) {
      return (groupOf(key).hashCode() & Integer.MAX_VALUE) % partitions;
    }
  }

  /** Groups composite keys by their group alone, so one reduce call sees a group's values. */
  public static final class GroupComparator extends WritableComparator {
    public GroupComparator() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      return groupOf((Text) a).compareTo(groupOf((Text) b));
    }
  }

  public static final class JoinValuesReducer extends Reducer<Text, Text, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      StringBuilder joined = new StringBuilder();
      for (Text value : values) {
        joined.append(joined.length() == 0 ? "" : ",").append(value);
      }
      context.write(new Text(groupOf(key)), new Text(joined.toString()));
    }
  }

  static Job secondarySort(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "secondary sort");
    job.setJarByClass(TestJobs.class);
    job.setMapperClass(CompositeMapper.class);
    job.setPartitionerClass(GroupPartitioner.class);
    job.setGroupingComparatorClass(GroupComparator.class);
    job.setReducerClass(JoinValuesReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(2);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
    return job;
  }

  // ---------------------------------------------------------------- many tiny map outputs

  /** One line per map task: its number. */
  static void writeLines(Path dir, int lines) throws IOException {
    try (BufferedWriter out =
        Files.newBufferedWriter(dir.resolve("lines.txt"), StandardCharsets.UTF_8)) {
      for (int i = 0; i < lines; i++) {
        out.write(i + "\n");
      }
    }
  }

  static final int KEYS_PER_LINE = 3;
  static final int KEY_SPACE = 97;

  /** Key {@code k<(n * 7 + j) % 97>} for j below 3, value n, for the sum job's reference. */
  static Map<String, Long> expectedSums(int lines) {
    Map<String, Long> sums = new TreeMap<>();
    for (int n = 0; n < lines; n++) {
      for (int j = 0; j < KEYS_PER_LINE; j++) {
        sums.merge("k" + (n * 7 + j) % KEY_SPACE, (long) n, Long::sum);
      }
    }
    return sums;
  }

  public static final class SpreadMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      long n = Long.parseLong(line.toString().trim());
      for (int j = 0; j < KEYS_PER_LINE; j++) {
        context.write(new Text("k" + (n * 7 + j) % KEY_SPACE), new LongWritable(n));
      }
    }
  }

  public static final class LongSumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long total = 0;
      for (LongWritable value : values) {
        total += value.get();
      }
      context.write(key, new LongWritable(total));
    }
  }

  static Job oneMapPerLine(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "one map per line");
    job.setJarByClass(TestJobs.class);
    job.setInputFormatClass(NLineInputFormat.class);
    NLineInputFormat.setNumLinesPerSplit(job, 1);
    job.setMapperClass(SpreadMapper.class);
    job.setReducerClass(LongSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
    return job;
  }
}
