package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagTask;
import org.spongefiles.bag.task.TaskSponges;
import org.spongefiles.testkit.CountingConfiguration;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * A Pig task parses each {@code sponge.*} key once: its bags' settings at its first bag and its
 * SpongeFiles at its first spill are built from the one parse of {@link PigBagOptions#settings}.
 */
class BagParsesOnceTest {
  private static final String ATTEMPT = "attempt_1_0001_r_000000_0";

  private Path poolDir;
  private Path diskDir;
  private CountingConfiguration conf;

  @BeforeEach
  void setUp() {
    poolDir = TestDirs.newShmDir("once-bag-pool");
    diskDir = TestDirs.newShmDir("once-bag-disk");
    conf = new CountingConfiguration(SpongeTestConf.of(poolDir, diskDir, 16L << 20, 256L << 10));
    PigBagOptions.MERGE_FANIN.set(conf, 2);
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @Test
  void aTaskAttemptWhoseBagsSpillAndMergeReadsEachKeyOnce() throws Exception {
    conf.set(TaskSponges.ATTEMPT_KEY, ATTEMPT);
    List<Tuple> tuples = new RandomTuples(41, 50).list(3_000);
    AtomicReference<List<Tuple>> read = new AtomicReference<>();
    AtomicReference<BagTask> task = new AtomicReference<>();
    try (TaskSponges tasks = new TaskSponges(null, PigBagOptions::settings)) {
      SpongeBagFactory factory = new SpongeBagFactory(tasks);
      // As a Pig task does: its thread holds the attempt's configuration.
      Thread attempt =
          new Thread(
              () -> {
                PigMapReduce.sJobConfInternal.set(conf);
                read.set(sortedBagSpilledThrice(factory, tuples));
                task.set(tasks.current());
              });
      attempt.start();
      attempt.join();

      assertThat(task.get().taskId()).isEqualTo(ATTEMPT);
      assertReadOnceAndSpilled(task.get());
    }
    BagAssert.assertSameSequence(read.get(), BagAssert.sorted(tuples));
  }

  @Test
  void theProcessWideTaskReadsEachKeyOnce() throws Exception {
    List<Tuple> tuples = new RandomTuples(42, 50).list(3_000);
    try (TaskSponges tasks = new TaskSponges(conf, PigBagOptions::settings)) {
      List<Tuple> read = sortedBagSpilledThrice(new SpongeBagFactory(tasks), tuples);

      assertThat(tasks.current().taskId()).isEqualTo(TaskSponges.PROCESS_TASK);
      assertReadOnceAndSpilled(tasks.current());
      BagAssert.assertSameSequence(read, BagAssert.sorted(tuples));
    }
  }

  /** A sorted bag spilled three times, read back through a merge of two runs at a time. */
  private static List<Tuple> sortedBagSpilledThrice(SpongeBagFactory factory, List<Tuple> tuples) {
    DataBag bag = factory.newSortedBag(null);
    int third = tuples.size() / 3;
    for (int i = 0; i < tuples.size(); i++) {
      bag.add(tuples.get(i));
      if (i % third == third - 1) {
        assertThat(bag.spill()).isPositive();
      }
    }
    return BagAssert.contents(bag);
  }

  private void assertReadOnceAndSpilled(BagTask task) {
    assertThat(conf.readMoreThanOnce()).isEmpty();
    assertThat(conf.reads("sponge.chunk.size")).isEqualTo(1);
    assertThat(conf.reads("sponge.tiers")).isEqualTo(1);
    assertThat(conf.reads(PigBagOptions.MERGE_FANIN.key())).isEqualTo(1);
    assertThat(task.stats().bytesWritten()).isPositive();
  }
}
