package org.spongefiles.workloads.leaky;

import java.io.IOException;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.MultipleInputs;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.spongefiles.leaky.baseline.HashMapJoinReducer;
import org.spongefiles.leaky.mapreduce.JoinKey;
import org.spongefiles.leaky.mapreduce.JoinValue;
import org.spongefiles.leaky.mapreduce.LeakyJoinReducer;
import org.spongefiles.testkit.data.bdb.Ranking;
import org.spongefiles.testkit.data.bdb.UserVisit;

/**
 * The paper's join workload in MapReduce: Rankings joined with UserVisits on the page URL
 * (rank-revenue). Every UserVisits row is buffered (the build side), every Rankings row is streamed
 * against it; the output is one line per visit of a ranked page: {@code url ->
 * pageRank,sourceIP,visitDate,adRevenue}.
 */
public final class LeakyJoinJob {
  private LeakyJoinJob() {}

  /** Map output key: the page URL and its side. */
  public static final class UrlKey extends JoinKey<Text> {
    static {
      WritableComparator.define(UrlKey.class, new JoinKey.Comparator(UrlKey.class, Text.class));
    }

    public UrlKey() {
      super(new Text());
    }
  }

  /** Map output value: a visit (build) or a ranking (probe). */
  public static final class VisitOrRank extends JoinValue<UserVisit, Ranking> {
    public VisitOrRank() {
      super(new UserVisit(), new Ranking());
    }
  }

  /** CSV lines of one side of the join to records keyed by the URL they join on. */
  private abstract static class SideMapper extends Mapper<LongWritable, Text, UrlKey, VisitOrRank> {
    private final byte side;
    private final BiFunction<String, VisitOrRank, Text> parse;
    private final UrlKey key = new UrlKey();
    private final VisitOrRank value = new VisitOrRank();

    /** {@code parse} fills the value's side from a line and returns the URL to join on. */
    SideMapper(byte side, BiFunction<String, VisitOrRank, Text> parse) {
      this.side = side;
      this.parse = parse;
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      key.side(side).key().set(parse.apply(line.toString(), value));
      context.write(key, value);
    }
  }

  /** UserVisits CSV lines to build-side records keyed by destURL. */
  public static final class VisitsMapper extends SideMapper {
    public VisitsMapper() {
      super(JoinKey.BUILD, (line, value) -> value.asBuild().parse(line).destUrl());
    }
  }

  /** Rankings CSV lines to probe-side records keyed by pageURL. */
  public static final class RankingsMapper extends SideMapper {
    public RankingsMapper() {
      super(JoinKey.PROBE, (line, value) -> value.asProbe().parse(line).pageUrl());
    }
  }

  /** The output line of one joined pair. */
  public static String joined(UserVisit visit, Ranking ranking) {
    return ranking.pageRank()
        + ","
        + visit.sourceIp()
        + ","
        + visit.visitDate()
        + ","
        + visit.adRevenue();
  }

  /** The join on the leaky buffer. */
  public static final class Leaky extends LeakyJoinReducer<Text, UserVisit, Ranking, Text, Text> {
    /** {@code visit} is deserialized from the buffer's bytes for this pair only. */
    @Override
    protected void join(Text url, UserVisit visit, Ranking ranking, Context context)
        throws IOException, InterruptedException {
      context.write(url, new Text(joined(visit, ranking)));
    }
  }

  /** The same join on {@code HashMap<Text, List<UserVisit>>}. */
  public static final class Baseline
      extends HashMapJoinReducer<Text, UserVisit, Ranking, Text, Text> {
    /** {@code visit} is one of the HashMap's deserialized copies. */
    @Override
    protected void join(Text url, UserVisit visit, Ranking ranking, Context context)
        throws IOException, InterruptedException {
      context.write(url, new Text(joined(visit, ranking)));
    }
  }

  /** A text-in, text-out join job over the two CSV inputs. */
  public static Job create(
      Configuration conf,
      Path rankings,
      Path userVisits,
      Path output,
      Class<? extends Reducer<?, ?, ?, ?>> reducer)
      throws IOException {
    Job job = Job.getInstance(conf, "rank-revenue join (" + reducer.getSimpleName() + ")");
    job.setJarByClass(LeakyJoinJob.class);
    MultipleInputs.addInputPath(job, rankings, TextInputFormat.class, RankingsMapper.class);
    MultipleInputs.addInputPath(job, userVisits, TextInputFormat.class, VisitsMapper.class);
    job.setMapOutputKeyClass(UrlKey.class);
    job.setMapOutputValueClass(VisitOrRank.class);
    job.setReducerClass(reducer);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
