package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertOrdered;
import static org.spongefiles.bag.BagAssert.assertSameMultiset;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.data.NonSpillableDataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.impl.util.SpillableMemoryManager;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.tier.TierKind;

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

      MemoryPressure.notifyFullHeap();

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
}
