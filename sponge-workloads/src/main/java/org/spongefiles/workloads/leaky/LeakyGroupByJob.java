package org.spongefiles.workloads.leaky;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.spongefiles.leaky.baseline.HashMapGroupingReducer;
import org.spongefiles.leaky.mapreduce.LeakyGroupingReducer;
import org.spongefiles.leaky.mapreduce.SubKeyed;
import org.spongefiles.testkit.data.bdb.BdbGenerator;
import org.spongefiles.testkit.data.bdb.UserVisit;

/**
 * The paper's ip-countrycode groupByKey in MapReduce: UserVisits shuffled by a coarse key (the
 * first octet of the source IP, folded into {@value #BUCKETS_KEY} buckets), and inside each reduce
 * call the country codes grouped by /24 subnet. One output line per subnet: {@code subnet ->
 * visits;country:count,...} with countries in order.
 */
public final class LeakyGroupByJob {
  /** Number of coarse keys the mapper folds first octets into (default 16). */
  public static final String BUCKETS_KEY = "leaky.bench.buckets";

  private LeakyGroupByJob() {}

  /** Map output value: the subnet (sub-key) and a country code. */
  public static final class SubnetCountry extends SubKeyed<Text, Text> {
    public SubnetCountry() {
      super(new Text(), new Text());
    }
  }

  /** UserVisits CSV lines to (bucket, subnet=countryCode). */
  public static final class VisitsMapper
      extends Mapper<LongWritable, Text, IntWritable, SubnetCountry> {
    private final UserVisit visit = new UserVisit();
    private final IntWritable bucket = new IntWritable();
    private final SubnetCountry value = new SubnetCountry();
    private int buckets;

    @Override
    protected void setup(Context context) {
      buckets = context.getConfiguration().getInt(BUCKETS_KEY, 16);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      visit.parse(line.toString());
      String ip = visit.sourceIp().toString();
      bucket.set(firstOctet(ip) % buckets);
      value.subKey().set(BdbGenerator.subnet(ip));
      value.value().set(visit.countryCode());
      context.write(bucket, value);
    }
  }

  static int firstOctet(String ip) {
    return Integer.parseInt(ip.substring(0, ip.indexOf('.')));
  }

  /** The output value of one subnet: its number of visits and visits per country. */
  public static String countries(Iterable<Text> codes) {
    Map<String, Integer> counts = new TreeMap<>();
    int visits = 0;
    for (Text code : codes) {
      counts.merge(code.toString(), 1, Integer::sum);
      visits++;
    }
    StringBuilder text = new StringBuilder().append(visits).append(';');
    counts.forEach((code, count) -> text.append(code).append(':').append(count).append(','));
    text.setLength(text.length() - 1);
    return text.toString();
  }

  /** Writes the line of one subnet (see {@link #countries}). */
  static void writeCountries(
      Text subnet, Iterable<Text> codes, TaskInputOutputContext<?, ?, Text, Text> context)
      throws IOException, InterruptedException {
    context.write(subnet, new Text(countries(codes)));
  }

  /** The grouping on the leaky buffer. */
  public static final class Leaky
      extends LeakyGroupingReducer<IntWritable, Text, Text, Text, Text> {
    /** {@code codes} are deserialized one at a time from the buffer's value bytes. */
    @Override
    protected void reduceGroup(IntWritable bucket, Text subnet, Iterable<Text> codes, Context ctx)
        throws IOException, InterruptedException {
      writeCountries(subnet, codes, ctx);
    }
  }

  /** The same grouping on {@code HashMap<Text, List<Text>>}. */
  public static final class Baseline
      extends HashMapGroupingReducer<IntWritable, Text, Text, Text, Text> {
    /** {@code codes} is the HashMap's list of deserialized copies. */
    @Override
    protected void reduceGroup(IntWritable bucket, Text subnet, Iterable<Text> codes, Context ctx)
        throws IOException, InterruptedException {
      writeCountries(subnet, codes, ctx);
    }
  }

  /** A text-in, text-out ip-countrycode job. */
  public static Job create(
      Configuration conf,
      Path userVisits,
      Path output,
      Class<? extends Reducer<?, ?, ?, ?>> reducer)
      throws IOException {
    Job job = Job.getInstance(conf, "ip-countrycode (" + reducer.getSimpleName() + ")");
    job.setJarByClass(LeakyGroupByJob.class);
    job.setMapperClass(VisitsMapper.class);
    FileInputFormat.addInputPath(job, userVisits);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(SubnetCountry.class);
    job.setReducerClass(reducer);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
