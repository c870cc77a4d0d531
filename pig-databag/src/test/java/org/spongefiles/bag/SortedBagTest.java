package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.spongefiles.bag.BagAssert.assertOrdered;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;
import static org.spongefiles.bag.BagAssert.sorted;
import static org.spongefiles.bag.DefaultBagTest.drain;
import static org.spongefiles.bag.DefaultBagTest.feed;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.executionengine.ExecException;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.SortedDataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagCounter;

/** Sorted bags against Pig's SortedDataBag, fed and spilled the same way. */
class SortedBagTest {

  /** Field 1 descending, nulls first, then the whole tuple: a total order, like an ORDER BY. */
  static final class ByNumberDescending implements Comparator<Tuple>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(Tuple a, Tuple b) {
      try {
        Long x = (Long) a.get(1);
        Long y = (Long) b.get(1);
        int c = x == null ? (y == null ? 0 : -1) : y == null ? 1 : y.compareTo(x);
        return c != 0 ? c : TupleOrder.NATURAL.compare(a, b);
      } catch (ExecException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  void pigsDefaultOrderAcrossRunsAndMemory() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(11, 500).list(20_000);
      DataBag ours = fixture.factory.newSortedBag(null);
      DataBag pigs = new SortedDataBag(null);
      feed(input, 4, ours, pigs);

      List<Tuple> expected = contents(pigs);
      assertSameSequence(expected, sorted(input));
      for (int pass = 0; pass < 2; pass++) {
        assertSameSequence(contents(ours), expected);
      }
      assertThat(ours.isSorted()).isTrue();
      assertThat(ours.size()).isEqualTo(20_000);
      pigs.clear();
    }
  }

  @Test
  void aComparatorOverMoreRunsThanTheFanInMergesRunsFirst() throws Exception {
    Configuration settings = new Configuration(false);
    settings.set(PigBagOptions.MERGE_FANIN.key(), "3");
    try (BagFixture fixture = new BagFixture(64L << 20, settings)) {
      List<Tuple> input = new RandomTuples(12, 500).list(11_000);
      Comparator<Tuple> order = new ByNumberDescending();
      SpongeBag ours = (SpongeBag) fixture.factory.newSortedBag(order);
      DataBag pigs = new SortedDataBag(order);
      feed(input, 10, ours, pigs);
      assertThat(ours.runCount()).isEqualTo(10);

      List<Tuple> read = contents(ours);
      assertThat(ours.runCount()).isLessThanOrEqualTo(3);
      assertThat(fixture.task().count(BagCounter.BAG_RUN_MERGES)).isGreaterThanOrEqualTo(4);
      assertThat(fixture.task().liveFiles()).isEqualTo(ours.runCount());
      assertOrdered(read, order);
      assertSameSequence(read, contents(pigs));
      assertSameSequence(contents(ours), read);
      pigs.clear();
    }
  }

  @Test
  void aSpillWhileReadingContinuesInOrder() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(13, 500).list(20_000);
      DataBag ours = fixture.factory.newSortedBag(null);
      DataBag pigs = new SortedDataBag(null);
      feed(input, 1, ours, pigs);
      Iterator<Tuple> oursReader = ours.iterator();
      Iterator<Tuple> pigsReader = pigs.iterator();
      List<Tuple> oursRead = new ArrayList<>();
      List<Tuple> pigsRead = new ArrayList<>();
      for (int i = 0; i < 9_000; i++) {
        oursRead.add(oursReader.next());
        pigsRead.add(pigsReader.next());
      }
      assertThat(ours.spill()).isEqualTo(10_000);
      assertThat(pigs.spill()).isEqualTo(10_000);
      drain(oursReader, oursRead);
      drain(pigsReader, pigsRead);

      assertSameSequence(oursRead, pigsRead);
      assertSameSequence(oursRead, sorted(input));
      pigs.clear();
    }
  }

  @Test
  void tuplesAddedAfterReadingFailTheOpenReaderAndAreSortedInByTheNextIterator() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(14, 500).list(3_000);
      DataBag ours = fixture.factory.newSortedBag(null);
      feed(input.subList(0, 2_000), 1, ours);
      Iterator<Tuple> early = ours.iterator();
      for (int i = 0; i < 1_500; i++) {
        early.next();
      }
      input.subList(2_000, 3_000).forEach(ours::add);

      assertThatThrownBy(
              () -> {
                while (early.hasNext()) {
                  early.next();
                }
              })
          .as("the open reader fails at once rather than return the unsorted additions")
          .isInstanceOf(ConcurrentModificationException.class)
          .hasMessageContaining("sorted bag");
      assertSameSequence(contents(ours), sorted(input));
    }
  }
}
