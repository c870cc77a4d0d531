package org.spongefiles.integration.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spongefiles.core.testing.TestDirs;
import org.spongefiles.integration.bench.leaky.LeakyHeapSweep;
import org.spongefiles.integration.bench.leaky.LeakyHotKeyBench;
import org.spongefiles.integration.bench.leaky.LeakyWorkload;

/**
 * Issue 10's hot-key heap sweep, small enough for CI: a join and a group-by where one key holds a
 * quarter of the records. The HashMap reducer runs in child JVMs at decreasing heaps until it
 * fails. On the join, the leaky reducer in each layout (per-key, shared, auto) then finishes at an
 * eighth of the naive reducer's least heap with the same output (record count and digest). On the
 * group-by, whose naive reducer needs only about 50 MiB at this size (an eighth of that is below
 * what a JVM running Hadoop's reduce context needs at all), each layout finishes with the same
 * output at the heap where the naive reducer ran out of memory.
 */
class LeakyHeapSweepTest {
  private static final int[] JOIN_HEAPS = LeakyHotKeyBench.heaps(480, 128, 0.8);
  private static final int[] GROUPBY_HEAPS = LeakyHotKeyBench.heaps(96, 30, 0.8);

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
  void theLeakyReducerFinishesFarBelowTheNaiveLeastHeap(LeakyWorkload workload) throws Exception {
    boolean groupBy = workload == LeakyWorkload.GROUPBY_HOTKEY;
    Path input = work.resolve("input");
    workload.write(input, 7, 600_000, 25_000, 5_000);
    int[] heaps = groupBy ? GROUPBY_HEAPS : JOIN_HEAPS;
    LeakyHeapSweep sweep = new LeakyHeapSweep(work, poolDir, 120);

    LeakyHeapSweep.Outcome reference = sweep.run(workload, "baseline", input, heaps[0]);
    assertThat(reference.status).as("naive reducer at %d MiB", heaps[0]).isEqualTo("ok");
    int naive = sweep.leastHeap(workload, "baseline", input, heaps, reference);
    assertThat(naive).as("naive least heap").isPositive();
    assertThat(naive)
        .as("the naive reducer fails within the sweep, so its least heap is measured")
        .isGreaterThan(heaps[heaps.length - 1]);

    int heap = groupBy ? (int) (naive * 0.8) : naive / 8;
    for (String layout : new String[] {"leaky-per_key", "leaky-shared", "leaky-auto"}) {
      LeakyHeapSweep.Outcome leaky = sweep.run(workload, layout, input, heap);
      assertThat(leaky.matches(reference))
          .as("%s at %d MiB (naive least heap %d MiB): %s", layout, heap, naive, leaky)
          .isTrue();
    }
  }
}
