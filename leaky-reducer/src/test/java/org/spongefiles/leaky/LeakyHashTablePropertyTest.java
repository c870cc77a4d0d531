package org.spongefiles.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * Random workloads against a {@code HashMap<K, List<V>>} reference: every layout holds the same
 * groups with the same values in the same order, through growth, hash collisions, empty values,
 * values larger than a page, and overflow to SpongeFiles (a small pool, then disk).
 */
class LeakyHashTablePropertyTest {
  private static final int PAGE = 4 << 10;

  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void dirs() {
    poolDir = TestDirs.newShmDir("leaky-pool");
    diskDir = TestDirs.newShmDir("leaky-disk");
  }

  @AfterEach
  void cleanUp() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  /** A workload: how many values, how many distinct keys (so the load factor), the budget. */
  static Stream<Arguments> workloads() {
    List<Arguments> cases = new ArrayList<>();
    long seed = 1;
    for (Layout layout : Layout.values()) {
      // low load factor, no overflow
      cases.add(Arguments.of(layout, seed++, 3_000, 2_000, 64L << 20));
      // low load factor, overflow
      cases.add(Arguments.of(layout, seed++, 6_000, 4_000, 24L << 10));
      // high load factor (group-by), overflow
      cases.add(Arguments.of(layout, seed++, 8_000, 40, 16L << 10));
      // one huge group, overflow
      cases.add(Arguments.of(layout, seed++, 4_000, 1, 12L << 10));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} seed={1} values={2} keys={3} budget={4}")
  @MethodSource("workloads")
  void holdsWhatAHashMapHolds(Layout layout, long seed, int count, int keySpace, long budget)
      throws Exception {
    Configuration conf = conf(layout, budget);
    SplittableRandom random = new SplittableRandom(seed);
    Map<CollidingKey, List<byte[]>> reference = new LinkedHashMap<>();
    try (SpongeTask task = SpongeTask.open(conf, "attempt_leaky_prop_" + seed);
        LeakyHashTable<CollidingKey, BytesWritable> table =
            LeakyHashTable.builder(CollidingKey.class, BytesWritable.class)
                .conf(conf)
                .overflowTo(task)
                .build()) {
      CollidingKey key = new CollidingKey();
      BytesWritable value = new BytesWritable();
      for (int i = 0; i < count; i++) {
        key.set(random.nextInt(keySpace));
        byte[] bytes = randomValue(random);
        value.set(bytes, 0, bytes.length);
        if (random.nextBoolean()) {
          table.put(key, value);
        } else {
          byte[] serialized = serialize(value);
          byte[] padded = new byte[serialized.length + 6];
          System.arraycopy(serialized, 0, padded, 3, serialized.length);
          table.putBytes(key, padded, 3, serialized.length);
        }
        reference.computeIfAbsent(new CollidingKey(key.id()), k -> new ArrayList<>()).add(bytes);
      }

      assertSameGroups(table, reference);
      assertSameGroups(table, reference); // groups can be read any number of times
      for (int probe = 0; probe < 50; probe++) {
        CollidingKey wanted = new CollidingKey(random.nextInt(keySpace * 2));
        Group<CollidingKey, BytesWritable> group = table.get(wanted);
        List<byte[]> expected = reference.get(wanted);
        if (expected == null) {
          assertThat(group).as("absent key %s", wanted).isNull();
        } else {
          assertThat(readAll(group)).as("lookup of %s", wanted).containsExactlyElementsOf(expected);
        }
      }

      LeakyStats stats = table.stats();
      assertThat(stats.values()).isEqualTo(count);
      assertThat(stats.keys()).isEqualTo(reference.size());
      assertThat(stats.peakHeapBytes()).isPositive();
      long totalBytes =
          reference.values().stream().flatMap(List::stream).mapToLong(b -> b.length).sum();
      if (budget < totalBytes / 2) {
        assertThat(stats.overflowBytes()).as("bytes moved to SpongeFiles").isPositive();
        assertThat(
                task.stats().bytesWritten(TierKind.POOL) + task.stats().bytesWritten(TierKind.DISK))
            .isEqualTo(stats.overflowBytes());
        assertThat(stats.heapBytes())
            .as("heap held after the last spill stays near the budget")
            .isLessThan(budget + budget / 2 + 256L * 1024);
      } else {
        assertThat(stats.overflowBytes()).isZero();
      }
      if (layout != Layout.AUTO) {
        assertThat(table.layout()).isEqualTo(layout);
      }

      table.clear();
      assertThat(table.size()).isZero();
      assertThat(table.groups()).isEmpty();
      key.set(7);
      value.set(new byte[] {1, 2, 3}, 0, 3);
      table.put(key, value);
      assertThat(readAll(table.get(key))).containsExactly(new byte[] {1, 2, 3});
    }
    assertThat(TestDirs.countFiles(diskDir)).as("overflow files left on disk").isZero();
  }

  private void assertSameGroups(
      LeakyHashTable<CollidingKey, BytesWritable> table,
      Map<CollidingKey, List<byte[]>> reference) {
    Map<CollidingKey, List<byte[]>> seen = new HashMap<>();
    List<CollidingKey> order = new ArrayList<>();
    for (Group<CollidingKey, BytesWritable> group : table.groups()) {
      assertThat(group.size()).isEqualTo(reference.get(group.key()).size());
      seen.put(group.key(), readAll(group));
      order.add(group.key());
    }
    assertThat(order)
        .as("groups in first-arrival order")
        .containsExactlyElementsOf(reference.keySet());
    for (Map.Entry<CollidingKey, List<byte[]>> entry : reference.entrySet()) {
      assertThat(seen.get(entry.getKey()))
          .as("values of %s", entry.getKey())
          .containsExactlyElementsOf(entry.getValue());
    }
  }

  private static List<byte[]> readAll(Group<CollidingKey, BytesWritable> group) {
    List<byte[]> values = new ArrayList<>();
    for (BytesWritable value : group.values()) {
      values.add(Arrays.copyOf(value.getBytes(), value.getLength()));
    }
    return values;
  }

  /** Mostly small values, some empty, a few larger than a page. */
  private static byte[] randomValue(SplittableRandom random) {
    int kind = random.nextInt(100);
    int length;
    if (kind < 5) {
      length = 0;
    } else if (kind < 7) {
      length = PAGE + random.nextInt(3 * PAGE);
    } else if (kind < 20) {
      length = 100 + random.nextInt(900);
    } else {
      length = 1 + random.nextInt(60);
    }
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private static byte[] serialize(BytesWritable value) throws Exception {
    org.apache.hadoop.io.DataOutputBuffer out = new org.apache.hadoop.io.DataOutputBuffer();
    value.write(out);
    return Arrays.copyOf(out.getData(), out.getLength());
  }

  private Configuration conf(Layout layout, long budget) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1L << 20, 64L << 10);
    LeakyOptions.LAYOUT.set(conf, layout);
    LeakyOptions.BUDGET.set(conf, budget);
    LeakyOptions.PAGE_SIZE.set(conf, (long) PAGE);
    LeakyOptions.AUTO_SAMPLE.set(conf, 500);
    return conf;
  }
}
