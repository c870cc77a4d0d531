package org.spongefiles.leaky.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spongefiles.leaky.Layout;
import org.spongefiles.leaky.LeakyOptions;
import org.spongefiles.leaky.mapreduce.ReducerHelpersTest.HashMapRankVisits;
import org.spongefiles.leaky.mapreduce.ReducerHelpersTest.HashMapSubnets;
import org.spongefiles.leaky.mapreduce.ReducerHelpersTest.LeakyRankVisits;
import org.spongefiles.leaky.mapreduce.ReducerHelpersTest.LeakySubnets;
import org.spongefiles.leaky.mapreduce.ReducerHelpersTest.SubnetCountry;
import org.spongefiles.leaky.mapreduce.ReducerHelpersTest.UrlKey;
import org.spongefiles.leaky.mapreduce.ReducerHelpersTest.VisitOrRank;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestResources;

/**
 * Overflowed values come back once per iteration of their group, checked by counters: a group-by
 * reads back exactly the bytes it moved; a join whose keys each get one batch of probe records does
 * too, however many probe records a hot key has; smaller probe batches read back more, one record
 * per batch as much as the old read-per-probe did.
 */
class OverflowReadBackTest {
  private static final String GROUP = LeakyCounters.GROUP;

  @RegisterExtension final TestResources resources = new TestResources();
  private final Path poolDir = resources.shmDir("leaky-readback-pool");
  private final Path diskDir = resources.shmDir("leaky-readback-disk");

  @ParameterizedTest
  @EnumSource(
      value = Layout.class,
      names = {"SHARED", "PER_KEY"})
  void aJoinReadsEachOverflowedKeyBackOncePerBatch(Layout layout) throws Exception {
    ReduceHarness leaky = hotKeyJoin();
    ReduceHarness baseline = hotKeyJoin();
    leaky.run(new LeakyRankVisits(), conf(layout, 1L << 20), UrlKey.class, VisitOrRank.class);
    baseline.run(new HashMapRankVisits(), conf(layout, 1L << 20), UrlKey.class, VisitOrRank.class);

    assertThat(sorted(leaky.output)).isEqualTo(sorted(baseline.output));
    long written = leaky.counter(GROUP, "OVERFLOW_BYTES");
    assertThat(written).isGreaterThan(64L << 10);
    // Every key's probes fit one batch, the hot key's 100 too: each moved byte comes back once.
    assertThat(leaky.counter(GROUP, "OVERFLOW_READ_BYTES")).isEqualTo(written);
  }

  @Test
  void smallerProbeBatchesReadBackMoreAndOneProbeABatchReadsBackPerProbe() throws Exception {
    long[] read = new long[3];
    long[] batches = {1L << 20, 256, 1};
    long written = -1;
    for (int i = 0; i < batches.length; i++) {
      ReduceHarness leaky = hotKeyJoin();
      leaky.run(
          new LeakyRankVisits(), conf(Layout.PER_KEY, batches[i]), UrlKey.class, VisitOrRank.class);
      read[i] = leaky.counter(GROUP, "OVERFLOW_READ_BYTES");
      written = leaky.counter(GROUP, "OVERFLOW_BYTES");
    }
    assertThat(read[0]).isEqualTo(written);
    assertThat(read[1]).isGreaterThan(read[0]).isLessThan(read[2]);
    // One probe per batch: the hot key's moved bytes come back for each of its 100 probes.
    assertThat(read[2]).isGreaterThan(20 * written);
  }

  @Test
  void aGroupByReadsBackWhatItMoved() throws Exception {
    ReduceHarness leaky = new ReduceHarness();
    ReduceHarness baseline = new ReduceHarness();
    IntWritable network = new IntWritable(10);
    SubnetCountry value = new SubnetCountry();
    for (int i = 0; i < 40_000; i++) {
      String subnet = i % 4 == 0 ? "10.0.0" : "10.0." + (1 + i % 500);
      value.subKey().set(subnet);
      value.value().set("c" + (i % 37));
      leaky.add(network, value);
      baseline.add(network, value);
    }
    leaky.run(
        new LeakySubnets(), conf(Layout.PER_KEY, 1L << 20), IntWritable.class, SubnetCountry.class);
    baseline.run(
        new HashMapSubnets(),
        conf(Layout.PER_KEY, 1L << 20),
        IntWritable.class,
        SubnetCountry.class);

    assertThat(sorted(leaky.output)).isEqualTo(sorted(baseline.output));
    long written = leaky.counter(GROUP, "OVERFLOW_BYTES");
    assertThat(written).isGreaterThan(64L << 10);
    assertThat(leaky.counter(GROUP, "OVERFLOW_READ_BYTES")).isEqualTo(written);
  }

  private static List<String> sorted(List<String> lines) {
    List<String> copy = new ArrayList<>(lines);
    Collections.sort(copy);
    return copy;
  }

  /** One hot URL with a quarter of the build values and 100 probe records; 300 cold URLs. */
  private static ReduceHarness hotKeyJoin() throws Exception {
    ReduceHarness harness = new ReduceHarness();
    UrlKey key = new UrlKey();
    VisitOrRank value = new VisitOrRank();
    for (int i = 0; i < 12_000; i++) {
      String url = i % 4 == 0 ? "hot" : "url" + (i % 300);
      key.side(JoinKey.BUILD).key().set(url);
      value.asBuild().set("10.0.0." + (i % 255) + "," + i);
      harness.add(key, value);
    }
    for (int i = 0; i < 100; i++) {
      key.side(JoinKey.PROBE).key().set("hot");
      value.asProbe().set(i);
      harness.add(key, value);
    }
    for (int url = 0; url < 300; url++) {
      key.side(JoinKey.PROBE).key().set("url" + url);
      value.asProbe().set(url % 97);
      harness.add(key, value);
    }
    return harness;
  }

  private Configuration conf(Layout layout, long probeBatch) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1L << 20, 64L << 10);
    LeakyOptions.LAYOUT.set(conf, layout);
    LeakyOptions.BUDGET.set(conf, 32L << 10);
    LeakyOptions.PAGE_SIZE.set(conf, 4L << 10);
    LeakyOptions.JOIN_PROBE_BATCH.set(conf, probeBatch);
    return conf;
  }
}
