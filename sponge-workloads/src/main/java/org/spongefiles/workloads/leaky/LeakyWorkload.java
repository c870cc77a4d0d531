package org.spongefiles.workloads.leaky;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Reducer;
import org.spongefiles.leaky.mapreduce.JoinKey;
import org.spongefiles.testkit.data.bdb.BdbGenerator;
import org.spongefiles.testkit.data.bdb.Ranking;
import org.spongefiles.testkit.data.bdb.UserVisit;

/**
 * The two benchmark workloads as one reduce task's sorted input: ip-countrycode (every UserVisits
 * row under one coarse key, so one reduce call groups the whole partition by subnet) and
 * rank-revenue (every UserVisits row as the build side, then every Rankings row as the probe side,
 * in JoinKey order).
 */
public enum LeakyWorkload {
  GROUPBY(
      LeakyGroupByJob.Leaky.class,
      LeakyGroupByJob.Baseline.class,
      IntWritable.class,
      LeakyGroupByJob.SubnetCountry.class),
  JOIN(
      LeakyJoinJob.Leaky.class,
      LeakyJoinJob.Baseline.class,
      LeakyJoinJob.UrlKey.class,
      LeakyJoinJob.VisitOrRank.class),
  /** The group-by with one subnet holding a quarter of the rows. */
  GROUPBY_HOTKEY(
      LeakyGroupByJob.Leaky.class,
      LeakyGroupByJob.Baseline.class,
      IntWritable.class,
      LeakyGroupByJob.SubnetCountry.class),
  /** The join with one page holding a quarter of the visits (the build side). */
  JOIN_HOTKEY(
      LeakyJoinJob.Leaky.class,
      LeakyJoinJob.Baseline.class,
      LeakyJoinJob.UrlKey.class,
      LeakyJoinJob.VisitOrRank.class);

  @SuppressWarnings("rawtypes")
  final Class<? extends Reducer> leaky;

  @SuppressWarnings("rawtypes")
  final Class<? extends Reducer> baseline;

  @SuppressWarnings("rawtypes")
  final Class<? extends WritableComparable> keyClass;

  final Class<?> valueClass;

  @SuppressWarnings("rawtypes")
  LeakyWorkload(
      Class<? extends Reducer> leaky,
      Class<? extends Reducer> baseline,
      Class<? extends WritableComparable> keyClass,
      Class<?> valueClass) {
    this.leaky = leaky;
    this.baseline = baseline;
    this.keyClass = keyClass;
    this.valueClass = valueClass;
  }

  public String label() {
    switch (this) {
      case GROUPBY:
        return "group-by (ip-countrycode)";
      case JOIN:
        return "join (rank-revenue)";
      case GROUPBY_HOTKEY:
        return "group-by, one subnet with 25% of the rows";
      default:
        return "join, one page with 25% of the visits";
    }
  }

  private boolean isGroupBy() {
    return this == GROUPBY || this == GROUPBY_HOTKEY;
  }

  private boolean hotKey() {
    return this == GROUPBY_HOTKEY || this == JOIN_HOTKEY;
  }

  /**
   * Writes the workload's reduce input for {@code visits} UserVisits rows over {@code pages} pages
   * and {@code subnets} subnets; returns the number of records.
   */
  public long write(Path file, long seed, long visits, int pages, int subnets) throws IOException {
    BdbGenerator generator = new BdbGenerator(seed, pages, subnets);
    try (LeakyInputFile.Writer out = new LeakyInputFile.Writer(file)) {
      if (isGroupBy()) {
        writeGroupBy(generator, out, visits, hotKey());
      } else {
        writeJoin(generator, out, visits, hotKey());
      }
      return out.records();
    }
  }

  /**
   * About how many bytes the job's CSV input (UserVisits, plus Rankings for the join) would be: the
   * numerator of the paper's data-to-memory ratio, estimated from 10,000 sampled rows.
   */
  public long csvBytes(long seed, long visits, int pages, int subnets) {
    BdbGenerator generator = new BdbGenerator(seed, pages, subnets);
    int sample = (int) Math.min(10_000, visits);
    long bytes = 0;
    UserVisit visit = new UserVisit();
    for (int i = 0; i < sample; i++) {
      bytes += generator.visit(i, visit).toCsv().length() + 1;
    }
    long total = bytes * visits / Math.max(1, sample);
    if (!isGroupBy()) {
      Ranking ranking = new Ranking();
      long rankingBytes = 0;
      int pageSample = Math.min(10_000, pages);
      for (int page = 0; page < pageSample; page++) {
        rankingBytes += generator.ranking(page, ranking).toCsv().length() + 1;
      }
      total += rankingBytes * pages / Math.max(1, pageSample);
    }
    return total;
  }

  private static void writeGroupBy(
      BdbGenerator generator, LeakyInputFile.Writer out, long visits, boolean hot)
      throws IOException {
    IntWritable bucket = new IntWritable(0);
    LeakyGroupByJob.SubnetCountry value = new LeakyGroupByJob.SubnetCountry();
    String hotSubnet = generator.subnet(0);
    for (long i = 0; i < visits; i++) {
      value.subKey().set(hot && i % 4 == 0 ? hotSubnet : generator.subnet(i));
      value.value().set(generator.countryCode(i));
      out.append(bucket, value);
    }
  }

  /**
   * Pages in URL order; each gets its visits (0 to twice the mean; with {@code hot}, the first page
   * gets a quarter of all visits and the others share the rest), then every ranking.
   */
  private static void writeJoin(
      BdbGenerator generator, LeakyInputFile.Writer out, long visits, boolean hot)
      throws IOException {
    int pages = generator.pages();
    String[] urls = new String[pages];
    Integer[] order = new Integer[pages];
    for (int page = 0; page < pages; page++) {
      urls[page] = generator.url(page);
      order[page] = page;
    }
    Arrays.sort(order, (a, b) -> urls[a].compareTo(urls[b]));
    LeakyJoinJob.UrlKey key = new LeakyJoinJob.UrlKey();
    LeakyJoinJob.VisitOrRank value = new LeakyJoinJob.VisitOrRank();
    SplittableRandom counts = new SplittableRandom(pages);
    int mean = (int) Math.max(1, (hot ? visits * 3 / 4 : visits) / pages);
    long index = 0;
    key.side(JoinKey.BUILD);
    for (int page : order) {
      key.key().set(urls[page]);
      int n = counts.nextInt(2 * mean + 1);
      if (hot && page == order[0]) {
        n = (int) (visits / 4);
      }
      for (int i = 0; i < n; i++) {
        UserVisit visit = generator.visit(index++, value.asBuild());
        visit.destUrl().set(urls[page]);
        out.append(key, value);
      }
    }
    key.side(JoinKey.PROBE);
    Ranking ranking = value.asProbe();
    for (int page : order) {
      generator.ranking(page, ranking);
      key.key().set(urls[page]);
      out.append(key, value);
    }
  }
}
