package org.spongefiles.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * One key holding a quarter of the values, under a budget smaller than that key's values: in every
 * layout the table never holds more than its budget, never allocates an array larger than a page (a
 * hot key's values grow in pages instead of one doubling array), moves the rest to SpongeFiles and
 * gives back exactly the values put, in order.
 */
class HotKeyBudgetTest {
  private static final int PAGE = 16 << 10;
  private static final long BUDGET = 1L << 20;
  private static final int VALUES = 40_000;
  private static final int COLD_KEYS = 1_000;
  private static final int HOT_KEY = -1;

  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void dirs() {
    poolDir = TestDirs.newShmDir("leaky-hot-pool");
    diskDir = TestDirs.newShmDir("leaky-hot-disk");
  }

  @AfterEach
  void cleanUp() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aHotKeyStaysWithinTheBudgetInPagesAndReadsBackAsPut(Layout layout) throws Exception {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 1L << 20, 64L << 10);
    LeakyOptions.BUDGET.set(conf, BUDGET);
    LeakyOptions.PAGE_SIZE.set(conf, (long) PAGE);
    LeakyOptions.LAYOUT.set(conf, layout);
    LeakyOptions.AUTO_SAMPLE.set(conf, 4_096);

    Map<Integer, CRC32> reference = new LinkedHashMap<>();
    List<Integer> keys = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(10);
    try (LeakyHashTable<IntWritable, Text> table =
        LeakyHashTable.builder(IntWritable.class, Text.class).conf(conf).build()) {
      IntWritable key = new IntWritable();
      Text value = new Text();
      for (int i = 0; i < VALUES; i++) {
        int k = random.nextInt(4) == 0 ? HOT_KEY : random.nextInt(COLD_KEYS);
        String v = k + ":" + i + ":" + "x".repeat(random.nextInt(40));
        key.set(k);
        value.set(v);
        table.put(key, value);
        reference.computeIfAbsent(k, unused -> new CRC32()).update(bytes(v));
      }
      keys.addAll(reference.keySet());

      Map<Integer, CRC32> read = new LinkedHashMap<>();
      for (Group<IntWritable, Text> group : table.groups()) {
        CRC32 crc = new CRC32();
        for (Text v : group.values()) {
          crc.update(v.getBytes(), 0, v.getLength());
        }
        read.put(group.key().get(), crc);
      }

      LeakyStats stats = table.stats();
      assertThat(read.keySet()).containsExactlyElementsOf(keys);
      for (int k : keys) {
        assertThat(read.get(k).getValue()).as("key %d", k).isEqualTo(reference.get(k).getValue());
      }
      assertThat(stats.peakHeapBytes()).as(stats.toString()).isLessThanOrEqualTo(BUDGET);
      assertThat(table.largestArray()).isLessThanOrEqualTo(PAGE);
      assertThat(stats.overflowBytes()).as(stats.toString()).isGreaterThan(BUDGET / 2);
      assertThat(stats.failedSpills()).isZero();
      // Auto keeps shared after its early look (the cold keys were still arriving); the hot key's
      // addresses, a few bytes each, move to SpongeFiles with its values and stay under the
      // quarter budget that would make it switch.
      assertThat(stats.layout()).isEqualTo(layout == Layout.AUTO ? Layout.SHARED : layout);
      // Every group iterated once: every overflowed byte came back exactly once.
      assertThat(stats.overflowReadBytes()).isEqualTo(stats.overflowBytes());
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
