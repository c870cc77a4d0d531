package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The final merge reads every SpongeFile in one round, unless their read buffers would exceed
 * sponge.merger.read.buffer.total: then, and only then, it merges the smallest first.
 */
class ReadBoundTest {

  @Test
  void intermediateMergesHappenOnlyPastTheReadBufferBound() throws Exception {
    try (LocalJobs jobs = new LocalJobs()) {
      Path input = jobs.newInput();
      Map<String, Integer> expected = TestJobs.writeWords(input, 14, 3_000, 60_000);

      LocalJobs.Run unbounded = jobs.sponge(TestJobs::wordCount, input, conf -> {});
      // 64 KiB windows, two per segment and a buffer: 576 KiB holds three segments at once.
      LocalJobs.Run bounded =
          jobs.sponge(
              TestJobs::wordCount,
              input,
              conf -> conf.set(MergerOptions.READ_BUFFER_TOTAL.key(), "576k"));

      String reference = TestJobs.render(expected);
      assertThat(unbounded.output).asString().isEqualTo(reference);
      assertThat(bounded.output).isEqualTo(unbounded.output);
      assertThat(unbounded.sponge(MergerCounter.FINAL_MERGE_SEGMENTS))
          .isEqualTo(spongeFilesBeforeTheFinalMerge(unbounded))
          .isGreaterThan(3);
      assertThat(unbounded.sponge(MergerCounter.INTERMEDIATE_MERGES)).isZero();
      assertThat(bounded.sponge(MergerCounter.FINAL_MERGE_SEGMENTS)).isEqualTo(3);
      // Each intermediate merge of k files removes k - 1: the first takes only what is needed.
      long files = spongeFilesBeforeTheFinalMerge(bounded);
      assertThat(files).isGreaterThan(3);
      assertThat(bounded.sponge(MergerCounter.INTERMEDIATE_MERGES)).isEqualTo((files - 3 + 1) / 2);
      assertThat(bounded.reduceSpillFiles).isEmpty();
    }
  }

  @Test
  void windowsGrownPastTheRequestedSizeReadTheSameRecords() throws Exception {
    try (LocalJobs jobs = new LocalJobs()) {
      Path input = jobs.newInput();
      Map<String, Integer> expected = TestJobs.writeWords(input, 14, 3_000, 60_000);

      // 16 KiB asked for, the budget shared among a dozen files: whole 64 KiB chunks per window.
      LocalJobs.Run grown =
          jobs.sponge(
              TestJobs::wordCount,
              input,
              conf -> conf.set(MergerOptions.READ_BUFFER_SIZE.key(), "16k"));

      assertThat(grown.output).asString().isEqualTo(TestJobs.render(expected));
      assertThat(grown.sponge(MergerCounter.FINAL_MERGE_SEGMENTS))
          .isEqualTo(spongeFilesBeforeTheFinalMerge(grown))
          .isGreaterThan(3);
      assertThat(grown.sponge(MergerCounter.INTERMEDIATE_MERGES)).isZero();
      assertThat(grown.reduceSpillFiles).isEmpty();
    }
  }

  /**
   * One per streamed map output, in-memory merge and memory flush. How many outputs an in-memory
   * merge takes varies from run to run: the fetcher's order follows the hash of the random job id.
   */
  private static long spongeFilesBeforeTheFinalMerge(LocalJobs.Run run) {
    return run.sponge(MergerCounter.MAP_OUTPUTS_SPILLED)
        + run.sponge(MergerCounter.IN_MEMORY_MERGES)
        + run.sponge(MergerCounter.MEMORY_FLUSHES);
  }
}
