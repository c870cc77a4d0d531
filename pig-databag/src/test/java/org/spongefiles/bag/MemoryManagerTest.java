package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertOrdered;
import static org.spongefiles.bag.BagAssert.assertSameMultiset;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.data.NonSpillableDataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.impl.util.SpillableMemoryManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.pig.FullHeap;

/** Spills driven by Pig's memory manager, from its thread, while the task adds and reads. */
class MemoryManagerTest {

  @Test
  void theMemoryManagerSpillsLargeBagsIntoSpongeFiles() throws Exception {
    Configuration pig = new Configuration(false);
    pig.set("pig.spill.size.threshold", "100000");
    pig.set("pig.spill.gc.activation.size", Long.toString(Long.MAX_VALUE));
    SpillableMemoryManager.getInstance().configure(pig);
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(41, 1000).list(10_000);
      SpongeBag large = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(large::add);
      SpongeBag small = (SpongeBag) fixture.factory.newSortedBag(null);
      input.subList(0, 10).forEach(small::add);

      FullHeap.tellPig();

      assertThat(large.runCount()).isEqualTo(1);
      assertThat(large.inMemory()).isZero();
      assertThat(small.runCount()).as("below pig.spill.size.threshold").isZero();
      assertThat(fixture.stats().bytesWritten(TierKind.POOL)).isEqualTo(large.spilledBytes());
      assertSameSequence(contents(large), input);
    }
  }

  @Test
  void spillsFromAnotherThreadWhileAddingAndReadingLoseNothing() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(42, 2000).list(40_000);
      SpongeBag plain = (SpongeBag) fixture.factory.newDefaultBag();
      SpongeBag sorted = (SpongeBag) fixture.factory.newSortedBag(null);
      SpongeBag distinct = (SpongeBag) fixture.factory.newDistinctBag();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong spilled = new AtomicLong();
      Thread spiller =
          new Thread(
              () -> {
                while (!stop.get()) {
                  spilled.addAndGet(plain.spill() + sorted.spill() + distinct.spill());
                  Thread.yield();
                }
              });
      spiller.start();
      try {
        plain.addAll(new NonSpillableDataBag(input));
        sorted.addAll(input);
        input.forEach(distinct::add);
        List<Tuple> readPlain = new ArrayList<>();
        for (Tuple tuple : plain) {
          readPlain.add(tuple);
        }
        assertSameSequence(readPlain, input);
      } finally {
        stop.set(true);
        spiller.join();
      }
      assertThat(spilled.get()).isPositive();
      assertThat(plain.runCount() + sorted.runCount() + distinct.runCount()).isGreaterThan(3);

      assertSameSequence(contents(plain), input);
      List<Tuple> readSorted = contents(sorted);
      assertOrdered(readSorted, TupleOrder.NATURAL);
      assertSameMultiset(readSorted, input);
      TreeSet<Tuple> unique = new TreeSet<>(TupleOrder.NATURAL);
      unique.addAll(input);
      assertSameSequence(contents(distinct), new ArrayList<>(unique));
      assertThat(distinct.size()).isEqualTo(unique.size());
    }
  }

  /**
   * Spills from the memory manager's thread land under open iterators of every kind of bag (the
   * spill below is made while one is in the bag's memory), and, for sorted and distinct bags, a
   * second iterator then merges runs (fan-in 2) the first one is still reading.
   */
  @ParameterizedTest
  @ValueSource(strings = {"default", "sorted", "distinct"})
  void spillsFromAnotherThreadUnderOpenReadersLoseNothing(String kind) throws Exception {
    Configuration settings = new Configuration(false);
    settings.set(PigBagOptions.MERGE_FANIN.key(), "2");
    ExecutorService memoryManager = Executors.newSingleThreadExecutor();
    try (BagFixture fixture = new BagFixture(64L << 20, settings)) {
      List<Tuple> input = new RandomTuples(43, 300).repeating(14_000, 7_000);
      SpongeBag bag = newBag(fixture.factory, kind);
      AtomicBoolean stop = new AtomicBoolean();
      Future<Long> racing =
          memoryManager.submit(
              () -> {
                long spilled = 0;
                while (!stop.get()) {
                  spilled += bag.spill();
                  Thread.yield();
                }
                return spilled;
              });
      input.subList(0, 10_000).forEach(bag::add);
      stop.set(true);
      racing.get();
      for (int from = 10_000; from < 12_000; from += 1_000) {
        input.subList(from, from + 1_000).forEach(bag::add);
        assertThat(memoryManager.submit(bag::spill).get()).isPositive();
      }
      input.subList(12_000, 14_000).forEach(bag::add);
      List<Tuple> expected = expected(kind, input);

      Iterator<Tuple> first = bag.iterator();
      List<Tuple> firstRead = new ArrayList<>();
      long inRuns = kind.equals("default") ? 14_000 - bag.inMemory() : 0;
      while (firstRead.size() < inRuns + 100) {
        firstRead.add(first.next());
      }
      long mergesBefore = fixture.task().count(BagCounter.BAG_RUN_MERGES);
      assertThat(memoryManager.submit(bag::spill).get())
          .as("tuples spilled from under the first reader")
          .isPositive();
      assertSameSequence(contents(bag), expected);
      if (!kind.equals("default")) {
        assertThat(fixture.task().count(BagCounter.BAG_RUN_MERGES)).isGreaterThan(mergesBefore);
        assertThat(bag.size()).isEqualTo(expected.size());
      }
      while (first.hasNext()) {
        firstRead.add(first.next());
      }
      assertSameSequence(firstRead, expected);
    } finally {
      memoryManager.shutdownNow();
    }
  }

  private static SpongeBag newBag(SpongeBagFactory factory, String kind) {
    switch (kind) {
      case "sorted":
        return (SpongeBag) factory.newSortedBag(null);
      case "distinct":
        return (SpongeBag) factory.newDistinctBag();
      default:
        return (SpongeBag) factory.newDefaultBag();
    }
  }

  private static List<Tuple> expected(String kind, List<Tuple> input) {
    switch (kind) {
      case "sorted":
        return BagAssert.sorted(input);
      case "distinct":
        TreeSet<Tuple> unique = new TreeSet<>(TupleOrder.NATURAL);
        unique.addAll(input);
        return new ArrayList<>(unique);
      default:
        return input;
    }
  }
}
