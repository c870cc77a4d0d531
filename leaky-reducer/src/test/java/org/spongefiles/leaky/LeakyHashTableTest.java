package org.spongefiles.leaky;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.CountingConfiguration;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

class LeakyHashTableTest {
  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void dirs() {
    poolDir = TestDirs.newShmDir("leaky-unit-pool");
    diskDir = TestDirs.newShmDir("leaky-unit-disk");
  }

  @AfterEach
  void cleanUp() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @Test
  void autoLayoutPicksPerKeyForGroupByAndSharedForJoins() throws Exception {
    Configuration conf = conf();
    LeakyOptions.AUTO_SAMPLE.set(conf, 1000);
    try (LeakyHashTable<IntWritable, Text> groupBy = table(conf);
        LeakyHashTable<IntWritable, Text> join = table(conf)) {
      for (int i = 0; i < 2000; i++) {
        groupBy.put(new IntWritable(i % 10), new Text("v" + i));
        join.put(new IntWritable(i / 2), new Text("v" + i));
        if (i == 998) {
          assertThat(groupBy.layout()).isEqualTo(Layout.AUTO);
        }
      }
      assertThat(groupBy.layout()).isEqualTo(Layout.PER_KEY);
      assertThat(join.layout()).isEqualTo(Layout.SHARED);
      assertThat(groupBy.stats().asCounters()).containsEntry("LAYOUT_PER_KEY", 1L);
      // values put before the switch were moved into the per-key arrays, in order
      List<String> zero = new ArrayList<>();
      for (Text value : groupBy.get(new IntWritable(0)).values()) {
        zero.add(value.toString());
      }
      assertThat(zero).hasSize(200).startsWith("v0", "v10", "v20").endsWith("v1990");
    }
  }

  @Test
  void autoLayoutRecognizesAGroupByBeforeAllItsKeysHaveArrived() throws Exception {
    Configuration conf = conf();
    LeakyOptions.BUDGET.set(conf, 16L << 20);
    java.util.SplittableRandom random = new java.util.SplittableRandom(5);
    try (LeakyHashTable<IntWritable, IntWritable> table =
        LeakyHashTable.builder(IntWritable.class, IntWritable.class).conf(conf).build()) {
      IntWritable key = new IntWritable();
      IntWritable value = new IntWritable();
      int decidedAt = -1;
      for (int i = 0; i < 600_000; i++) {
        key.set(random.nextInt(50_000));
        table.put(key, value);
        if (decidedAt < 0 && table.layout() != Layout.AUTO) {
          decidedAt = i + 1;
        }
      }
      assertThat(decidedAt).as("decided at half the budget").isBetween(100_000, 550_000);
      assertThat(decidedAt / (double) table.size())
          .as("values per key when it decided: the plain ratio is below the threshold")
          .isLessThan(16);
      assertThat(table.layout()).isEqualTo(Layout.PER_KEY);
    }
  }

  @Test
  void overflowGoesToSpongeFilesAndCloseDeletesIt() throws Exception {
    Configuration conf = conf();
    conf.set(SpongeOptions.TIERS.key(), "disk");
    LeakyOptions.BUDGET.set(conf, 64L << 10);
    LeakyOptions.PAGE_SIZE.set(conf, 8L << 10);
    LeakyHashTable<IntWritable, Text> table =
        LeakyHashTable.builder(IntWritable.class, Text.class)
            .conf(conf)
            .taskAttempt("attempt_leaky_unit_r_000000_0")
            .build();
    assertThat(table.overflowTask()).as("no SpongeFiles before the first spill").isNull();
    Text value = new Text("x".repeat(300));
    for (int i = 0; i < 3000; i++) {
      table.put(new IntWritable(i % 100), value);
    }
    LeakyStats stats = table.stats();
    assertThat(stats.overflowBytes()).isGreaterThan(600_000);
    assertThat(stats.spills()).isPositive();
    assertThat(table.overflowTask().stats().bytesWritten(TierKind.DISK))
        .isEqualTo(stats.overflowBytes());
    assertThat(TestDirs.countFiles(diskDir)).isPositive();
    int values = 0;
    for (Group<IntWritable, Text> group : table.groups()) {
      for (Text read : group.values()) {
        assertThat(read).isEqualTo(value);
        values++;
      }
    }
    assertThat(values).isEqualTo(3000);
    table.close();
    table.close();
    assertThat(TestDirs.countFiles(diskDir)).isZero();
    assertThatThrownBy(() -> table.put(new IntWritable(1), value))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void aTableThatOverflowsReadsEachKeyOnce() throws Exception {
    Configuration base = conf();
    base.set(SpongeOptions.TIERS.key(), "disk");
    LeakyOptions.BUDGET.set(base, 64L << 10);
    LeakyOptions.PAGE_SIZE.set(base, 8L << 10);
    CountingConfiguration conf = new CountingConfiguration(base);
    try (LeakyHashTable<IntWritable, Text> table =
        LeakyHashTable.builder(IntWritable.class, Text.class)
            .conf(conf)
            .taskAttempt("attempt_leaky_once_r_000000_0")
            .build()) {
      Text value = new Text("x".repeat(300));
      for (int i = 0; i < 1000; i++) {
        table.put(new IntWritable(i % 100), value);
      }

      assertThat(table.stats().overflowBytes()).isPositive();
      assertThat(conf.readMoreThanOnce()).isEmpty();
      assertThat(conf.reads(LeakyOptions.PAGE_SIZE.key())).isEqualTo(1);
      assertThat(conf.reads(SpongeOptions.CHUNK_SIZE.key())).isEqualTo(1);
    }
  }

  /** A bad value fails the table at its start, not at its first overflow, naming key and value. */
  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "sponge.leaky.page.size|huge|not a byte size",
        "sponge.leaky.layout|diagonal|must be one of auto, shared, per_key",
        "sponge.leaky.auto.sample|1|must be between 16 and",
        "sponge.chunk.size|lots|not a byte size",
      })
  void aBadValueFailsTheTableAtBuildNamingKeyAndValue(String key, String value, String reason) {
    Configuration conf = conf();
    conf.set(key, value);
    assertThatThrownBy(() -> table(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Invalid value " + value + " for configuration " + key + ": ")
        .hasMessageContaining(reason);
  }

  @Test
  void aBudgetBelowTwoPagesIsRejectedNamingTheKey() {
    Configuration conf = conf();
    LeakyOptions.BUDGET.set(conf, 1L << 20);
    LeakyOptions.PAGE_SIZE.set(conf, 1L << 20);
    assertThatThrownBy(() -> table(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sponge.leaky.budget")
        .hasMessageContaining("1m")
        .hasMessageContaining("two pages");
  }

  @Test
  void bytesNotWrittenByTheValueClassAreReportedWithTheirKey() throws Exception {
    try (LeakyHashTable<IntWritable, IntWritable> table =
        LeakyHashTable.builder(IntWritable.class, IntWritable.class).conf(conf()).build()) {
      table.putBytes(new IntWritable(42), new byte[] {0, 0, 0, 7, 9}, 0, 5);
      Iterator<IntWritable> values = table.get(new IntWritable(42)).values().iterator();
      assertThatThrownBy(values::next)
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("key 42")
          .hasStackTraceContaining(
              "is 5 bytes but org.apache.hadoop.io.IntWritable.readFields consumed 4");
    }
  }

  @Test
  void puttingWhileIteratingFails() throws Exception {
    try (LeakyHashTable<IntWritable, Text> table = table(conf())) {
      table.put(new IntWritable(1), new Text("a"));
      table.put(new IntWritable(1), new Text("b"));
      Iterator<Text> values = table.get(new IntWritable(1)).values().iterator();
      values.next();
      table.put(new IntWritable(2), new Text("c"));
      assertThatThrownBy(values::next).isInstanceOf(ConcurrentModificationException.class);
    }
  }

  @Test
  void theKeyIsCopiedSoCallersMayReuseTheirs() throws Exception {
    try (LeakyHashTable<Text, Text> table =
        LeakyHashTable.builder(Text.class, Text.class).conf(conf()).build()) {
      Text key = new Text("first");
      table.put(key, new Text("1"));
      key.set("second");
      table.put(key, new Text("2"));
      assertThat(table.size()).isEqualTo(2);
      assertThat(table.get(new Text("first")).key()).isEqualTo(new Text("first"));
    }
  }

  private static LeakyHashTable<IntWritable, Text> table(Configuration conf) {
    return LeakyHashTable.builder(IntWritable.class, Text.class).conf(conf).build();
  }

  private Configuration conf() {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1L << 20, 64L << 10);
    LeakyOptions.BUDGET.set(conf, 64L << 20);
    return conf;
  }
}
