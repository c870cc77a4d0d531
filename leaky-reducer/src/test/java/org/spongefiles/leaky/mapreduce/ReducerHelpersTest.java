package org.spongefiles.leaky.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.leaky.LeakyOptions;
import org.spongefiles.leaky.ValueBytes;
import org.spongefiles.leaky.baseline.HashMapGroupingReducer;
import org.spongefiles.leaky.baseline.HashMapJoinReducer;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * The reducer helpers under Hadoop's own reduce context: raw and re-serialized values give the
 * output of the HashMap baselines and of a reference computed directly from the records.
 */
class ReducerHelpersTest {
  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void dirs() {
    poolDir = TestDirs.newShmDir("leaky-helpers-pool");
    diskDir = TestDirs.newShmDir("leaky-helpers-disk");
  }

  @AfterEach
  void cleanUp() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  /** Country codes of IP subnets, shuffled by a coarse network number. */
  public static final class SubnetCountry extends SubKeyed<Text, Text> {
    public SubnetCountry() {
      super(new Text(), new Text());
    }
  }

  public static final class UrlKey extends JoinKey<Text> {
    public UrlKey() {
      super(new Text());
    }
  }

  /** Build side: a visit ("ip,revenue"); probe side: a page rank. */
  public static final class VisitOrRank extends JoinValue<Text, IntWritable> {
    public VisitOrRank() {
      super(new Text(), new IntWritable());
    }
  }

  static String countries(IntWritable network, Text subnet, Iterable<Text> values) {
    TreeMap<String, Integer> counts = new TreeMap<>();
    for (Text country : values) {
      counts.merge(country.toString(), 1, Integer::sum);
    }
    return network + "/" + subnet + "=" + counts;
  }

  public static final class LeakySubnets
      extends LeakyGroupingReducer<IntWritable, Text, Text, Object, Object> {
    @Override
    protected void reduceGroup(IntWritable key, Text subKey, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      context.write(countries(key, subKey, values), "");
    }
  }

  public static final class HashMapSubnets
      extends HashMapGroupingReducer<IntWritable, Text, Text, Object, Object> {
    @Override
    protected void reduceGroup(IntWritable key, Text subKey, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      context.write(countries(key, subKey, values), "");
    }
  }

  public static final class LeakyRankVisits
      extends LeakyJoinReducer<Text, Text, IntWritable, Object, Object> {
    @Override
    protected void join(Text key, Text build, IntWritable probe, Context context)
        throws IOException, InterruptedException {
      context.write(key, probe + "," + build);
    }
  }

  public static final class HashMapRankVisits
      extends HashMapJoinReducer<Text, Text, IntWritable, Object, Object> {
    @Override
    protected void join(Text key, Text build, IntWritable probe, Context context)
        throws IOException, InterruptedException {
      context.write(key, probe + "," + build);
    }
  }

  @ParameterizedTest
  @EnumSource(ValueBytes.class)
  void groupingMatchesTheBaselineAndTheReference(ValueBytes mode) throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    Map<String, TreeMap<String, Integer>> reference = new HashMap<>();
    ReduceHarness leaky = new ReduceHarness();
    ReduceHarness baseline = new ReduceHarness();
    SubnetCountry value = new SubnetCountry();
    IntWritable network = new IntWritable();
    for (int i = 0; i < 20_000; i++) {
      network.set(random.nextInt(3));
      value.subKey().set("10." + network.get() + "." + random.nextInt(300));
      value.value().set(new String[] {"US", "DE", "FR", "BR", "JP"}[random.nextInt(5)]);
      leaky.add(network, value);
      baseline.add(network, value);
      reference
          .computeIfAbsent(network + "/" + value.subKey(), k -> new TreeMap<>())
          .merge(value.value().toString(), 1, Integer::sum);
    }
    Configuration conf = conf(mode, 32L << 10);
    leaky.run(new LeakySubnets(), conf, IntWritable.class, SubnetCountry.class);
    baseline.run(
        new HashMapSubnets(), conf(mode, 32L << 10), IntWritable.class, SubnetCountry.class);

    List<String> expected = new ArrayList<>();
    reference.forEach((subnet, counts) -> expected.add(subnet + "=" + counts + "\t"));
    assertThat(leaky.output).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(baseline.output).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(leaky.counter(LeakyCounters.GROUP, LeakyCounters.RAW_VALUES))
        .isEqualTo(mode == ValueBytes.RAW ? 1 : 0);
    assertThat(leaky.counter(LeakyCounters.GROUP, "VALUES")).isEqualTo(20_000);
    assertThat(leaky.counter(LeakyCounters.GROUP, "OVERFLOW_BYTES")).isPositive();
    assertThat(
            leaky.counter(LeakyCounters.SPONGE_GROUP, "POOL_BYTES_WRITTEN")
                + leaky.counter(LeakyCounters.SPONGE_GROUP, "DISK_BYTES_WRITTEN"))
        .isEqualTo(leaky.counter(LeakyCounters.GROUP, "OVERFLOW_BYTES"));
    assertThat(leaky.counters.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue())
        .isEqualTo(20_000);
    assertThat(leaky.counters.findCounter(TaskCounter.REDUCE_INPUT_GROUPS).getValue())
        .isEqualTo(baseline.counters.findCounter(TaskCounter.REDUCE_INPUT_GROUPS).getValue())
        .isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(ValueBytes.class)
  void joinMatchesTheBaselineAndTheReference(ValueBytes mode) throws Exception {
    SplittableRandom random = new SplittableRandom(11);
    ReduceHarness leaky = new ReduceHarness();
    ReduceHarness baseline = new ReduceHarness();
    UrlKey key = new UrlKey();
    VisitOrRank value = new VisitOrRank();
    Map<String, List<String>> visits = new HashMap<>();
    Map<String, Integer> ranks = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      key.side(JoinKey.BUILD).key().set("url" + random.nextInt(2_000));
      value.asBuild().set("10.0.0." + random.nextInt(255) + "," + random.nextInt(1000));
      leaky.add(key, value);
      baseline.add(key, value);
      visits
          .computeIfAbsent(key.key().toString(), k -> new ArrayList<>())
          .add(value.build().toString());
    }
    for (int url = 0; url < 2_500; url += 2) {
      key.side(JoinKey.PROBE).key().set("url" + url);
      value.asProbe().set(url % 97);
      leaky.add(key, value);
      baseline.add(key, value);
      ranks.put("url" + url, url % 97);
    }
    leaky.run(new LeakyRankVisits(), conf(mode, 32L << 10), UrlKey.class, VisitOrRank.class);
    baseline.run(new HashMapRankVisits(), conf(mode, 32L << 10), UrlKey.class, VisitOrRank.class);

    List<String> expected = new ArrayList<>();
    long unmatched = 0;
    for (Map.Entry<String, Integer> rank : ranks.entrySet()) {
      List<String> matches = visits.get(rank.getKey());
      if (matches == null) {
        unmatched++;
        continue;
      }
      for (String visit : matches) {
        expected.add(rank.getKey() + "\t" + rank.getValue() + "," + visit);
      }
    }
    assertThat(leaky.output).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(baseline.output).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(leaky.counter(LeakyCounters.GROUP, LeakyJoinReducer.UNMATCHED_PROBES))
        .isEqualTo(baseline.counter(LeakyCounters.GROUP, LeakyJoinReducer.UNMATCHED_PROBES))
        .isEqualTo(unmatched)
        .isPositive();
    assertThat(leaky.counter(LeakyCounters.GROUP, "OVERFLOW_BYTES")).isPositive();
    assertThat(leaky.counter(LeakyCounters.GROUP, "LAYOUT_PER_KEY")).isZero();
  }

  @Test
  void aBuildRecordAfterProbeRecordsIsRejected() throws Exception {
    ReduceHarness harness = new ReduceHarness().unsorted();
    UrlKey key = new UrlKey();
    VisitOrRank value = new VisitOrRank();
    key.side(JoinKey.PROBE).key().set("a");
    value.asProbe().set(1);
    harness.add(key, value);
    key.side(JoinKey.BUILD).key().set("b");
    value.asBuild().set("visit");
    harness.add(key, value);
    assertThatThrownBy(
            () ->
                harness.run(
                    new LeakyRankVisits(),
                    conf(ValueBytes.RAW, 1L << 20),
                    UrlKey.class,
                    VisitOrRank.class))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Build-side record build:b arrived after probe-side records");
  }

  @Test
  void aBadHelperValueFailsTheTaskAtItsStartNamingKeyAndValue() throws IOException {
    ReduceHarness harness = new ReduceHarness();
    UrlKey key = new UrlKey();
    VisitOrRank value = new VisitOrRank();
    key.side(JoinKey.BUILD).key().set("a");
    value.asBuild().set("visit");
    harness.add(key, value);
    Configuration conf = conf(ValueBytes.RAW, 1L << 20);
    conf.set(LeakyOptions.JOIN_PROBE_BATCH.key(), "0");

    assertThatThrownBy(
            () -> harness.run(new LeakyRankVisits(), conf, UrlKey.class, VisitOrRank.class))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "Invalid value 0 for configuration sponge.leaky.join.probe.batch: must be between");
    assertThat(harness.output).isEmpty();
  }

  private Configuration conf(ValueBytes mode, long budget) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1L << 20, 64L << 10);
    LeakyOptions.VALUE_BYTES.set(conf, mode);
    LeakyOptions.BUDGET.set(conf, budget);
    LeakyOptions.PAGE_SIZE.set(conf, 4L << 10);
    return conf;
  }
}
