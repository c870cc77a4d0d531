package org.spongefiles.it.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.workloads.leaky.LeakyHeapSweep;
import org.spongefiles.workloads.leaky.LeakyWorkload;

/**
 * Issue 10's hot-key heap sweep, small enough for CI: a join and a group-by where one key holds a
 * quarter of the records, the naive (HashMap) reducer against the leaky one in each layout
 * (per-key, shared, auto), every run in a child JVM. In both, the leaky reducer in every layout
 * finishes with the naive reducer's output (record count and digest) at an eighth of the naive
 * reducer's least heap.
 *
 * <p>The join sweeps the naive reducer down to its least heap. The group-by's naive reducer holds a
 * few dozen bytes per row, so only millions of rows put its least heap above eight times the ~21
 * MiB a JVM running a reduce context needs at all; sweeping it down would take minutes (near its
 * least heap it spends over a minute collecting garbage). So the test runs it at one heap where it
 * runs out of memory: its least heap is above that heap, and the leaky layouts finish at an eighth
 * of it.
 */
class LeakyHeapSweepTest {
  private static final String[] LAYOUTS = {"leaky-per_key", "leaky-shared", "leaky-auto"};
  private static final int[] JOIN_HEAPS = LeakyHeapSweep.heaps(480, 128, 0.8);
  private static final long GROUPBY_ROWS = 4_400_000;
  private static final int GROUPBY_TOP = 480;
  private static final int GROUPBY_NAIVE_FAILS = 232;

  private Path work;
  private Path poolDir;

  @BeforeEach
  void dirs() throws Exception {
    work = Files.createTempDirectory("leaky-sweep-");
    poolDir = TestDirs.newShmDir("leaky-sweep-pool");
  }

  @AfterEach
  void cleanUp() {
    TestDirs.deleteTree(work);
    TestDirs.deleteTree(poolDir);
  }

  @Test
  void theLeakyJoinFinishesAtAnEighthOfTheNaiveLeastHeap() throws Exception {
    LeakyWorkload workload = LeakyWorkload.JOIN_HOTKEY;
    Path input = work.resolve("input");
    workload.write(input, 7, 600_000, 25_000, 5_000);
    LeakyHeapSweep sweep = new LeakyHeapSweep(work, poolDir, 120);

    LeakyHeapSweep.Outcome reference = sweep.run(workload, "baseline", input, JOIN_HEAPS[0]);
    assertThat(reference.status).as("naive reducer at %d MiB", JOIN_HEAPS[0]).isEqualTo("ok");
    int naive = sweep.leastHeap(workload, "baseline", input, JOIN_HEAPS, reference);
    assertThat(naive).as("naive least heap").isPositive();
    assertThat(naive)
        .as("the naive reducer fails within the sweep, so its least heap is measured")
        .isGreaterThan(JOIN_HEAPS[JOIN_HEAPS.length - 1]);

    assertEveryLayoutMatches(sweep, workload, input, naive / 8, reference, naive);
  }

  @Test
  void theLeakyGroupByFinishesAtAnEighthOfAHeapWhereTheNaiveOneDies() throws Exception {
    LeakyWorkload workload = LeakyWorkload.GROUPBY_HOTKEY;
    Path input = work.resolve("input");
    workload.write(input, 7, GROUPBY_ROWS, 25_000, 5_000);
    LeakyHeapSweep sweep = new LeakyHeapSweep(work, poolDir, 240);

    LeakyHeapSweep.Outcome reference = sweep.run(workload, "baseline", input, GROUPBY_TOP);
    assertThat(reference.status).as("naive reducer at %d MiB", GROUPBY_TOP).isEqualTo("ok");
    LeakyHeapSweep.Outcome dies = sweep.run(workload, "baseline", input, GROUPBY_NAIVE_FAILS);
    assertThat(dies.status)
        .as("the naive reducer at %d MiB, so its least heap is above it", GROUPBY_NAIVE_FAILS)
        .isEqualTo("oom");

    assertEveryLayoutMatches(
        sweep, workload, input, GROUPBY_NAIVE_FAILS / 8, reference, GROUPBY_NAIVE_FAILS);
  }

  private static void assertEveryLayoutMatches(
      LeakyHeapSweep sweep,
      LeakyWorkload workload,
      Path input,
      int heap,
      LeakyHeapSweep.Outcome reference,
      int naive)
      throws Exception {
    for (String layout : LAYOUTS) {
      LeakyHeapSweep.Outcome leaky = sweep.run(workload, layout, input, heap);
      assertThat(leaky.matches(reference))
          .as("%s at %d MiB (naive reducer: %d MiB): %s", layout, heap, naive, leaky)
          .isTrue();
    }
  }
}
