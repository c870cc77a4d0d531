package org.spongefiles.integration.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spongefiles.core.testing.TestDirs;
import org.spongefiles.integration.bench.LeakyHeapSweep;
import org.spongefiles.integration.bench.LeakyHotKeyBench;
import org.spongefiles.integration.bench.LeakyWorkload;

/**
 * Issue 10's hot-key heap sweep, small enough for CI: a group-by and a join where one key holds a
 * quarter of the records. The HashMap reducer runs in child JVMs at decreasing heaps until it
 * fails; the leaky reducer then finishes at an eighth of the naive reducer's least heap with the
 * same output (record count and digest): per-key and auto on both workloads, shared on the join.
 * Shared is not run at an eighth on the group-by: it pins 8 bytes of address per value on the heap,
 * which for 2.4 M values is more than an eighth of the naive heap (docs/leaky-reducer.md).
 */
class LeakyHeapSweepTest {
  private static final int[] HEAPS = LeakyHotKeyBench.heaps(480, 128, 0.8);

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

  @ParameterizedTest
  @EnumSource(
      value = LeakyWorkload.class,
      names = {"GROUPBY_HOTKEY", "JOIN_HOTKEY"})
  void theLeakyReducerFinishesAtAnEighthOfTheNaiveLeastHeap(LeakyWorkload workload)
      throws Exception {
    boolean groupBy = workload == LeakyWorkload.GROUPBY_HOTKEY;
    Path input = work.resolve("input");
    workload.write(input, 7, groupBy ? 2_400_000 : 600_000, 25_000, 5_000);
    LeakyHeapSweep sweep = new LeakyHeapSweep(work, poolDir, 120);

    LeakyHeapSweep.Outcome reference = sweep.run(workload, "baseline", input, HEAPS[0]);
    assertThat(reference.status).as("naive reducer at %d MiB", HEAPS[0]).isEqualTo("ok");
    int naive = sweep.leastHeap(workload, "baseline", input, HEAPS, reference);
    assertThat(naive).as("naive least heap").isPositive();
    assertThat(naive)
        .as("the naive reducer fails within the sweep, so its least heap is measured")
        .isGreaterThan(HEAPS[HEAPS.length - 1]);

    int eighth = naive / 8;
    String[] layouts =
        groupBy
            ? new String[] {"leaky-per_key", "leaky-auto"}
            : new String[] {"leaky-per_key", "leaky-shared", "leaky-auto"};
    for (String layout : layouts) {
      LeakyHeapSweep.Outcome leaky = sweep.run(workload, layout, input, eighth);
      assertThat(leaky.matches(reference))
          .as("%s at %d MiB (naive least heap %d MiB): %s", layout, eighth, naive, leaky)
          .isTrue();
    }
  }
}
