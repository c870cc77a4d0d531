package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;
import static org.spongefiles.bag.BagAssert.sorted;
import static org.spongefiles.bag.DefaultBagTest.drain;
import static org.spongefiles.bag.DefaultBagTest.feed;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spongefiles.bag.task.BagCounter;

/**
 * A second iterator merges runs (more than the fan-in) while a first one is open and its memory has
 * just been spilled: the first must still read every tuple, from the spilled memory and from the
 * runs the second merged away.
 */
class InterleavedReadersTest {
  private static final int FAN_IN = 2;

  private static BagFixture fixture() throws Exception {
    Configuration settings = new Configuration(false);
    settings.set(PigBagOptions.MERGE_FANIN.key(), Integer.toString(FAN_IN));
    return new BagFixture(64L << 20, settings);
  }

  /**
   * With 300 tuples per run, each run fits in a reader's 64 KiB buffer, so a reader on a deleted
   * run would not notice; with 3,000 it reads the run again after it was merged away.
   */
  @ParameterizedTest
  @ValueSource(ints = {300, 3_000})
  void aMergeByASecondIteratorLeavesAnOpenSortedReaderWhole(int perRun) throws Exception {
    try (BagFixture fixture = fixture()) {
      List<Tuple> input = new RandomTuples(91, 500).list(3 * perRun);
      SpongeBag bag = (SpongeBag) fixture.factory.newSortedBag(null);
      feed(input, 2, bag);
      List<Tuple> expected = sorted(input);

      Iterator<Tuple> first = bag.iterator();
      List<Tuple> firstRead = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        firstRead.add(first.next());
      }
      assertThat(bag.spill()).as("memory spilled under the first reader").isEqualTo(perRun);
      assertSameSequence(contents(bag), expected);
      assertThat(fixture.task().count(BagCounter.BAG_RUN_MERGES)).isEqualTo(1);
      assertThat(bag.runCount()).isEqualTo(FAN_IN);
      drain(first, firstRead);

      assertSameSequence(firstRead, expected);
      assertThat(fixture.task().liveFiles())
          .as("the merged runs are deleted once their last reader finished")
          .isEqualTo(bag.runCount());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {300, 3_000})
  void sizeOfASpilledDistinctBagLeavesAnOpenReaderWhole(int perRun) throws Exception {
    try (BagFixture fixture = fixture()) {
      List<Tuple> input = new RandomTuples(92, 100).repeating(6 * perRun, 2 * perRun);
      SpongeBag bag = (SpongeBag) fixture.factory.newDistinctBag();
      feed(input, 2, bag);
      TreeSet<Tuple> unique = new TreeSet<>(TupleOrder.NATURAL);
      unique.addAll(input);
      List<Tuple> expected = new ArrayList<>(unique);

      Iterator<Tuple> first = bag.iterator();
      List<Tuple> firstRead = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        firstRead.add(first.next());
      }
      assertThat(bag.spill()).as("memory spilled under the first reader").isPositive();
      assertThat(bag.size()).isEqualTo(expected.size());
      assertThat(fixture.task().count(BagCounter.BAG_RUN_MERGES)).isEqualTo(1);
      drain(first, firstRead);

      assertSameSequence(firstRead, expected);
      assertThat(fixture.task().liveFiles()).isEqualTo(bag.runCount());
    }
  }
}
