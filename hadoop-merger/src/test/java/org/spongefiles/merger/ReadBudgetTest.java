package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * A merge of few SpongeFiles shares the read budget among them (larger windows, fewer round trips
 * to a sponge server or reads of the disk); a merge of many falls back to the requested window; and
 * whatever the number of segments up to the fan-in, their buffers stay within the budget.
 */
class ReadBudgetTest {
  private static final int CHUNK = 1 << 20;
  private static final int BLOCK = 16 << 10;

  private Path pool;
  private Path disk;

  @BeforeEach
  void setUp() {
    pool = TestDirs.newShmDir("budget-pool");
    disk = TestDirs.newShmDir("budget-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(pool);
    TestDirs.deleteTree(disk);
  }

  @Test
  void fewSegmentsShareTheBudgetUpToAChunkAndManyKeepTheRequestedWindow() throws Exception {
    withBudget(
        "64k",
        "32m",
        false,
        budget -> {
          assertThat(budget.window()).isEqualTo(64 << 10);
          assertThat(budget.fanIn()).isEqualTo((32 << 20) / (3 * (64 << 10)));
          assertThat(budget.window(1)).isEqualTo(CHUNK);
          assertThat(budget.window(15)).isEqualTo(CHUNK);
          // 32 MiB / 40 = 838,860 bytes; less the 64 KiB in front, halved, in whole 16 KiB blocks.
          assertThat(budget.window(40))
              .isEqualTo(((32 << 20) / 40 - (64 << 10)) / 2 / BLOCK * BLOCK);
          assertThat(budget.window(budget.fanIn())).isEqualTo(64 << 10);
          assertThat(budget.window(10_000)).isEqualTo(64 << 10);
          assertWithinBudget(budget, 32L << 20, 64 << 10);
        });
  }

  @Test
  void aCompressedMergeLeavesRoomForItsDecompressors() throws Exception {
    withBudget(
        "32k",
        "4m",
        true,
        budget -> {
          long perSegment = 3 * (32 << 10) + ReadBudget.CODEC_ALLOWANCE;
          assertThat(budget.perSegment()).isEqualTo(perSegment);
          assertThat(budget.window(4))
              .isEqualTo(
                  ((4 << 20) / 4 - (32 << 10) - ReadBudget.CODEC_ALLOWANCE) / 2 / BLOCK * BLOCK);
          assertWithinBudget(budget, 4L << 20, (32 << 10) + ReadBudget.CODEC_ALLOWANCE);
        });
  }

  /** Runs {@code check} on the budget of a task with 1 MiB chunks and these merger settings. */
  private void withBudget(
      String requested, String total, boolean compressed, Consumer<ReadBudget> check)
      throws Exception {
    Configuration conf = SpongeTestConf.of(pool, disk, 8L << 20, CHUNK);
    conf.set(MergerOptions.READ_BUFFER_SIZE.key(), requested);
    conf.set(MergerOptions.READ_BUFFER_TOTAL.key(), total);
    ParsedConfig values = SpongeTask.parse(conf, new MergerOptions());
    try (SpongeTask task = SpongeTask.open(values, conf, "attempt_budget_r_000000_0")) {
      check.accept(ReadBudget.from(values, conf, task, compressed));
    }
  }

  /** Every merge of up to fan-in segments: two windows each, plus what sits in front of them. */
  private static void assertWithinBudget(ReadBudget budget, long total, long inFront) {
    int previous = Integer.MAX_VALUE;
    for (int segments = 1; segments <= budget.fanIn(); segments++) {
      int window = budget.window(segments);
      assertThat(window % BLOCK).as("window of %d segments", segments).isZero();
      assertThat(window).as("window of %d segments", segments).isLessThanOrEqualTo(previous);
      assertThat(segments * (2L * window + inFront))
          .as("buffers of %d segments", segments)
          .isLessThanOrEqualTo(total);
      previous = window;
    }
  }
}
