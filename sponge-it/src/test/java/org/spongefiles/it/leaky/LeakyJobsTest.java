package org.spongefiles.it.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.spongefiles.leaky.LeakyOptions;
import org.spongefiles.leaky.ValueBytes;
import org.spongefiles.leaky.mapreduce.LeakyCounters;
import org.spongefiles.leaky.mapreduce.LeakyJoinReducer;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.data.bdb.BdbGenerator;
import org.spongefiles.testkit.data.bdb.Ranking;
import org.spongefiles.testkit.data.bdb.UserVisit;
import org.spongefiles.workloads.leaky.LeakyGroupByJob;
import org.spongefiles.workloads.leaky.LeakyJoinJob;

/**
 * The join and grouping helpers in real LocalJobRunner jobs over generated Rankings/UserVisits CSV
 * files: their output equals the HashMap baselines' output and a reference computed from the
 * generator directly, with values overflowing to SpongeFiles.
 */
class LeakyJobsTest {
  private static final int PAGES = 3_000;
  private static final int VISITS = 30_000;
  private static final int REDUCERS = 2;

  private static Path work;
  private static Path poolDir;
  private static Path rankings;
  private static Path userVisits;
  private static BdbGenerator generator;

  @BeforeAll
  static void generate() throws IOException {
    work = Files.createTempDirectory("leaky-jobs-");
    poolDir = TestDirs.newShmDir("leaky-jobs-pool");
    generator = new BdbGenerator(2024, PAGES, 1_500);
    Files.createDirectories(work.resolve("rankings"));
    Files.createDirectories(work.resolve("uservisits"));
    rankings = work.resolve("rankings/part-0.csv");
    userVisits = work.resolve("uservisits/part-0.csv");
    generator.writeCsv(rankings, userVisits, VISITS);
  }

  @AfterAll
  static void cleanUp() {
    TestDirs.deleteTree(work);
    TestDirs.deleteTree(poolDir);
  }

  @Test
  void joinOnTheLeakyBufferEqualsTheBaselineAndTheReference() throws Exception {
    List<String> expected = new ArrayList<>();
    Map<String, Ranking> ranked = new HashMap<>();
    for (int page = 0; page < PAGES; page++) {
      Ranking ranking = generator.ranking(page, new Ranking());
      ranked.put(ranking.pageUrl().toString(), ranking);
    }
    UserVisit visit = new UserVisit();
    for (long i = 0; i < VISITS; i++) {
      generator.visit(i, visit);
      Ranking ranking = ranked.get(visit.destUrl().toString());
      expected.add(visit.destUrl() + "\t" + LeakyJoinJob.joined(visit, ranking));
    }
    Collections.sort(expected);

    Job raw = runJoin("join-raw", LeakyJoinJob.Leaky.class, ValueBytes.RAW);
    Job reserialized =
        runJoin("join-reserialize", LeakyJoinJob.Leaky.class, ValueBytes.RESERIALIZE);
    Job baseline = runJoin("join-baseline", LeakyJoinJob.Baseline.class, ValueBytes.RAW);

    assertThat(output("join-raw")).hasSize(VISITS).isEqualTo(expected);
    assertThat(output("join-reserialize")).isEqualTo(expected);
    assertThat(output("join-baseline")).isEqualTo(expected);

    Counters counters = raw.getCounters();
    assertThat(counter(counters, LeakyCounters.RAW_VALUES)).isEqualTo(REDUCERS);
    assertThat(counter(reserialized.getCounters(), LeakyCounters.RAW_VALUES)).isZero();
    assertThat(counter(counters, "VALUES")).isEqualTo(VISITS);
    assertThat(counter(counters, LeakyJoinReducer.UNMATCHED_PROBES))
        .isEqualTo(counter(baseline.getCounters(), LeakyJoinReducer.UNMATCHED_PROBES))
        .isEqualTo(PAGES - expected.stream().map(l -> l.split("\t")[0]).distinct().count());
    assertOverflowed(counters);
    assertThat(counters.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue())
        .isEqualTo(baseline.getCounters().findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue())
        .isEqualTo(VISITS + PAGES);
  }

  @Test
  void groupingBySubnetOnTheLeakyBufferEqualsTheBaselineAndTheReference() throws Exception {
    Map<String, List<org.apache.hadoop.io.Text>> codes = new TreeMap<>();
    UserVisit visit = new UserVisit();
    for (long i = 0; i < VISITS; i++) {
      generator.visit(i, visit);
      codes
          .computeIfAbsent(BdbGenerator.subnet(visit.sourceIp().toString()), k -> new ArrayList<>())
          .add(new org.apache.hadoop.io.Text(visit.countryCode()));
    }
    List<String> expected =
        codes.entrySet().stream()
            .map(e -> e.getKey() + "\t" + LeakyGroupByJob.countries(e.getValue()))
            .sorted()
            .collect(Collectors.toList());

    Job leaky = runGroupBy("group-raw", LeakyGroupByJob.Leaky.class, ValueBytes.RAW);
    runGroupBy("group-baseline", LeakyGroupByJob.Baseline.class, ValueBytes.RAW);

    assertThat(output("group-raw")).isEqualTo(expected);
    assertThat(output("group-baseline")).isEqualTo(expected);
    Counters counters = leaky.getCounters();
    assertThat(counter(counters, LeakyCounters.RAW_VALUES)).isEqualTo(REDUCERS);
    assertThat(counter(counters, "VALUES")).isEqualTo(VISITS);
    assertThat(counter(counters, "KEYS")).isEqualTo(codes.size());
    assertOverflowed(counters);
  }

  private static void assertOverflowed(Counters counters) {
    long overflow = counter(counters, "OVERFLOW_BYTES");
    assertThat(overflow).as("value bytes moved to SpongeFiles").isPositive();
    long pool = counters.findCounter(LeakyCounters.SPONGE_GROUP, "POOL_BYTES_WRITTEN").getValue();
    long disk = counters.findCounter(LeakyCounters.SPONGE_GROUP, "DISK_BYTES_WRITTEN").getValue();
    assertThat(pool).as("the pool took the first overflow chunks").isPositive();
    assertThat(pool + disk).isEqualTo(overflow);
  }

  private static long counter(Counters counters, String name) {
    return counters.findCounter(LeakyCounters.GROUP, name).getValue();
  }

  private Job runJoin(String name, Class<? extends Reducer<?, ?, ?, ?>> reducer, ValueBytes mode)
      throws Exception {
    return run(
        name,
        LeakyJoinJob.create(
            conf(name, mode),
            fsPath(rankings.getParent()),
            fsPath(userVisits.getParent()),
            fsPath(work.resolve(name)),
            reducer));
  }

  private Job runGroupBy(String name, Class<? extends Reducer<?, ?, ?, ?>> reducer, ValueBytes mode)
      throws Exception {
    return run(
        name,
        LeakyGroupByJob.create(
            conf(name, mode), fsPath(userVisits.getParent()), fsPath(work.resolve(name)), reducer));
  }

  private static Job run(String name, Job job) throws Exception {
    job.setNumReduceTasks(REDUCERS);
    assertThat(job.waitForCompletion(false)).as(name + " succeeded").isTrue();
    return job;
  }

  private static org.apache.hadoop.fs.Path fsPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  private static Configuration conf(String name, ValueBytes mode) throws IOException {
    Path disk = Files.createDirectories(work.resolve(name + "-spill"));
    Configuration conf = SpongeTestConf.of(poolDir, disk, 512L << 10, 64L << 10);
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.task.io.sort.mb", "16");
    // waitForCompletion polls: at Hadoop's 5 s, each of the five jobs ends up to 5 s late
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 50);
    conf.set("hadoop.tmp.dir", work.resolve(name + "-tmp").toString());
    // Without mapred-default (a Configuration(false)) the local runner stages jobs in a fixed
    // directory of its own and leaves them there.
    conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve(name + "-staging").toString());
    LeakyOptions.VALUE_BYTES.set(conf, mode);
    LeakyOptions.BUDGET.set(conf, 32L << 10);
    LeakyOptions.PAGE_SIZE.set(conf, 4L << 10);
    // two coarse keys: each reduce call of the grouping job holds thousands of values
    conf.setInt(LeakyGroupByJob.BUCKETS_KEY, 2);
    LeakyOptions.AUTO_SAMPLE.set(conf, 2_000);
    return conf;
  }

  private static List<String> output(String name) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> parts = Files.list(work.resolve(name))) {
      for (Path part :
          parts
              .filter(p -> p.getFileName().toString().startsWith("part-r-"))
              .collect(Collectors.toList())) {
        lines.addAll(Files.readAllLines(part, StandardCharsets.UTF_8));
      }
    }
    Collections.sort(lines);
    return lines;
  }
}
