package org.spongefiles.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * The shared layout with a hot key whose value addresses alone, at eight bytes each, would be more
 * than twice the budget: its address list moves to SpongeFiles with the values, so the table still
 * holds no more than its budget, and every key reads back its values in order, each overflowed byte
 * once.
 */
class SharedAddressListsTest {
  private static final long BUDGET = 256 << 10;
  private static final int PAGE = 16 << 10;
  private static final int VALUES = 160_000;
  private static final int COLD_KEYS = 500;

  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void dirs() {
    poolDir = TestDirs.newShmDir("leaky-addr-pool");
    diskDir = TestDirs.newShmDir("leaky-addr-disk");
  }

  @AfterEach
  void cleanUp() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @Test
  void aHotKeysAddressesMoveToSpongeFilesWithItsValues() throws Exception {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 4L << 20, 64L << 10);
    LeakyOptions.BUDGET.set(conf, BUDGET);
    LeakyOptions.PAGE_SIZE.set(conf, (long) PAGE);
    LeakyOptions.LAYOUT.set(conf, Layout.SHARED);

    CRC32[] reference = new CRC32[COLD_KEYS + 1];
    int[] counts = new int[COLD_KEYS + 1];
    try (LeakyHashTable<IntWritable, Text> table =
        LeakyHashTable.builder(IntWritable.class, Text.class).conf(conf).build()) {
      IntWritable key = new IntWritable();
      Text value = new Text();
      for (int i = 0; i < VALUES; i++) {
        // Every second value is the hot key's (key 0); the others cycle through the cold keys.
        int k = i % 2 == 0 ? 0 : 1 + (i / 2) % COLD_KEYS;
        value.set(Integer.toString(i % 10));
        key.set(k);
        table.put(key, value);
        reference[k] = reference[k] == null ? new CRC32() : reference[k];
        reference[k].update(value.getBytes(), 0, value.getLength());
        counts[k]++;
      }
      assertThat(VALUES / 2 * 8L).as("the hot key's addresses as longs").isGreaterThan(2 * BUDGET);

      int groups = 0;
      for (Group<IntWritable, Text> group : table.groups()) {
        int k = group.key().get();
        CRC32 crc = new CRC32();
        int n = 0;
        for (Text v : group.values()) {
          crc.update(v.getBytes(), 0, v.getLength());
          n++;
        }
        assertThat(n).as("values of key %d", k).isEqualTo(counts[k]).isEqualTo(group.size());
        assertThat(crc.getValue()).as("key %d", k).isEqualTo(reference[k].getValue());
        groups++;
      }
      assertThat(groups).isEqualTo(COLD_KEYS + 1);

      LeakyStats stats = table.stats();
      assertThat(stats.layout()).isEqualTo(Layout.SHARED);
      assertThat(stats.peakHeapBytes()).as(stats.toString()).isLessThanOrEqualTo(BUDGET);
      assertThat(stats.failedSpills()).isZero();
      assertThat(stats.overflowBytes()).as(stats.toString()).isGreaterThan(2 * BUDGET);
      assertThat(stats.overflowReadBytes()).isEqualTo(stats.overflowBytes());
    }
  }

  @Test
  void distancesTakeAsFewBytesAsTheyNeed() {
    byte[] bytes = new byte[8];
    long[] distances = {0, 1, 255, 256, 65_535, 1L << 31, Long.MAX_VALUE};
    int[] sizes = {1, 1, 1, 2, 2, 4, 8};
    for (int i = 0; i < distances.length; i++) {
      int n = SharedLogStore.encode(distances[i], bytes);
      assertThat(n).as("bytes for %d", distances[i]).isEqualTo(sizes[i]);
      assertThat(SharedLogStore.decode(bytes, 0, n)).isEqualTo(distances[i]);
    }
  }
}
