package org.spongefiles.leaky;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.TestResources;

/**
 * Overflow that cannot be written, or comes back corrupt, with a real pool as the only tier: the
 * table keeps serving what it holds, and what it cannot serve is named.
 */
class OverflowFailureTest {
  private static final long BUDGET = 64L << 10;
  private static final long CHUNK = 64L << 10;

  @RegisterExtension final TestResources resources = new TestResources();
  private final Path poolDir = resources.shmDir("leaky-fail-pool");
  private final Path diskDir = resources.shmDir("leaky-fail-disk");

  /**
   * Four pool chunks take four spills (one file each); later spills find every tier full, and that
   * only surfaces when the file is finished, after its bytes were handed over.
   */
  @ParameterizedTest
  @EnumSource(
      value = Layout.class,
      names = {"SHARED", "PER_KEY"})
  void whenEveryTierIsFullTheValuesStayOnTheHeapAndReadBack(Layout layout) throws Exception {
    Configuration conf = conf(layout, 4 * CHUNK);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_leaky_full_" + layout);
        LeakyHashTable<IntWritable, Text> table =
            LeakyHashTable.builder(IntWritable.class, Text.class)
                .conf(conf)
                .overflowTo(task)
                .build()) {
      Map<Integer, List<String>> reference = new LinkedHashMap<>();
      put(table, reference, 0, 3000);
      assertHolds(table, reference);
      assertHolds(table, reference);

      LeakyStats stats = table.stats();
      assertThat(stats.spills()).as("spills the pool took").isPositive();
      assertThat(stats.failedSpills())
          .as("failed spills: retried after growth, not on each of thousands of puts")
          .isBetween(1L, 8L);
      assertThat(stats.asCounters()).containsEntry("FAILED_SPILLS", stats.failedSpills());
      assertThat(stats.overflowBytes()).isEqualTo(task.stats().bytesWritten(TierKind.POOL));
      assertThat(task.files()).as("failed files deleted").hasSize((int) stats.overflowFiles());
      assertThat(stats.heapBytes())
          .as("what could not move stayed on the heap")
          .isGreaterThan(4 * BUDGET);

      table.clear();
      assertThat(task.tiers().pool().pool().freeChunks()).as("pool chunks freed").isEqualTo(4);
      reference.clear();
      long spillsBefore = stats.spills();
      put(table, reference, 0, 1000);
      assertThat(table.stats().spills())
          .as("overflow resumes once the pool has room")
          .isGreaterThan(spillsBefore);
      assertHolds(table, reference);
    }
    assertThat(TestDirs.countFiles(diskDir)).isZero();
  }

  /** The table opens its own SpongeTask on the first spill; here opening fails each time. */
  @Test
  void whenSpongeFilesCannotBeOpenedTheValuesStayOnTheHeap() throws Exception {
    Path notADirectory = Files.createFile(poolDir.resolve("not-a-directory"));
    Configuration conf = conf(Layout.SHARED, 4 * CHUNK);
    SpongeOptions.POOL_DIR.set(conf, notADirectory.toString());
    try (LeakyHashTable<IntWritable, Text> table =
        LeakyHashTable.builder(IntWritable.class, Text.class)
            .conf(conf)
            .taskAttempt("attempt_leaky_unopened")
            .build()) {
      Map<Integer, List<String>> reference = new LinkedHashMap<>();
      put(table, reference, 0, 3000);
      assertHolds(table, reference);
      assertThat(table.stats().failedSpills()).isBetween(1L, 8L);
      assertThat(table.stats().spills()).isZero();
      assertThat(table.overflowTask()).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Layout.class,
      names = {"SHARED", "PER_KEY"})
  void overflowBytesCorruptedInThePoolAreReportedWithTheKeyAndFile(Layout layout) throws Exception {
    Configuration conf = conf(layout, 1L << 20);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_leaky_corrupt_" + layout);
        LeakyHashTable<IntWritable, Text> table =
            LeakyHashTable.builder(IntWritable.class, Text.class)
                .conf(conf)
                .overflowTo(task)
                .build()) {
      put(table, new LinkedHashMap<>(), 0, 1000);
      assertThat(table.stats().spills()).isPositive();
      assertThat(table.stats().failedSpills()).isZero();
      scribbleOverPoolSegments();

      assertThatThrownBy(() -> readAll(table))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageMatching(
              "cannot read a value of key \\d+ back: corrupt value length at .*"
                  + "overflow SpongeFile 'attempt_leaky_corrupt_"
                  + layout
                  + "-leaky-\\d+' of task attempt_leaky_corrupt_"
                  + layout
                  + " at offset \\d+.*");
    }
  }

  /** Puts values {@code [from, to)} on 100 keys, each naming its index, of 5 to 404 bytes. */
  private static void put(
      LeakyHashTable<IntWritable, Text> table,
      Map<Integer, List<String>> reference,
      int from,
      int to)
      throws IOException {
    IntWritable key = new IntWritable();
    Text value = new Text();
    for (int i = from; i < to; i++) {
      String text = String.format("%05d", i) + "x".repeat(i % 400);
      key.set(i % 100);
      value.set(text);
      table.put(key, value);
      reference.computeIfAbsent(i % 100, k -> new ArrayList<>()).add(text);
    }
  }

  private static void assertHolds(
      LeakyHashTable<IntWritable, Text> table, Map<Integer, List<String>> reference) {
    assertThat(readAll(table)).isEqualTo(reference);
  }

  private static Map<Integer, List<String>> readAll(LeakyHashTable<IntWritable, Text> table) {
    Map<Integer, List<String>> read = new LinkedHashMap<>();
    for (Group<IntWritable, Text> group : table.groups()) {
      List<String> values = new ArrayList<>();
      for (Text value : group.values()) {
        values.add(value.toString());
      }
      read.put(group.key().get(), values);
    }
    return read;
  }

  /** Another process writing over the pool's chunks: every data byte becomes 0xFF. */
  private void scribbleOverPoolSegments() throws IOException {
    List<Path> segments;
    try (Stream<Path> files = Files.list(poolDir)) {
      segments =
          files
              .filter(Files::isRegularFile) // not the lease directory
              .filter(f -> !f.getFileName().toString().endsWith(".meta"))
              .filter(f -> !f.getFileName().toString().endsWith(".extents"))
              .collect(Collectors.toList());
    }
    assertThat(segments).isNotEmpty();
    for (Path segment : segments) {
      try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
        byte[] ones = new byte[(int) channel.size()];
        Arrays.fill(ones, (byte) 0xFF);
        channel.write(ByteBuffer.wrap(ones), 0);
      }
    }
  }

  private Configuration conf(Layout layout, long poolBytes) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, poolBytes, CHUNK);
    conf.set(SpongeOptions.TIERS.key(), "pool");
    LeakyOptions.LAYOUT.set(conf, layout);
    LeakyOptions.BUDGET.set(conf, BUDGET);
    LeakyOptions.PAGE_SIZE.set(conf, 8L << 10);
    return conf;
  }
}
