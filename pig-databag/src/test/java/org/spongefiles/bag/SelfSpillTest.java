package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;
import static org.spongefiles.bag.BagAssert.sorted;

import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.Test;

/** Bags spill themselves past sponge.pig.bag.memory of the heap, as Pig's internal bags do. */
class SelfSpillTest {

  private static Configuration limit(String fraction) {
    Configuration conf = new Configuration(false);
    conf.set(PigBagOptions.BAG_MEMORY.key(), fraction);
    return conf;
  }

  /**
   * As Pig's internal bags share pig.cachedbag.memusage: a group's bag (POPackage, one input) all
   * of it, a nested ORDER's or DISTINCT's bag a third (POSort and PODistinct pass 3).
   */
  @Test
  void aBagPastItsShareOfTheHeapSpillsItself() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, limit("0.001"))) {
      long share = fixture.task().memory().share();
      assertThat(share).isEqualTo((long) (0.001 * Runtime.getRuntime().maxMemory()));
      List<Tuple> input = new RandomTuples(81, 1000).list(30_000);
      SpongeBag plain = (SpongeBag) fixture.factory.newDefaultBag();
      SpongeBag ordered = (SpongeBag) fixture.factory.newSortedBag(null);
      SpongeBag distinct = (SpongeBag) fixture.factory.newDistinctBag();
      assertThat(plain.selfSpillLimit()).isEqualTo(share);
      assertThat(ordered.selfSpillLimit()).isEqualTo(share / 3);
      assertThat(distinct.selfSpillLimit()).isEqualTo(share / 3);
      long plainPeak = 0;
      for (Tuple tuple : input) {
        plain.add(tuple);
        ordered.add(tuple);
        distinct.add(tuple);
        plainPeak = Math.max(plainPeak, plain.getMemorySize());
        assertThat(ordered.getMemorySize()).isLessThanOrEqualTo(share / 3 + 16_384);
        assertThat(distinct.getMemorySize()).isLessThanOrEqualTo(share / 3 + 16_384);
      }

      assertThat(plainPeak).isBetween(share / 2, share + 16_384);
      assertThat(plain.runCount()).isGreaterThan(3);
      assertThat(ordered.runCount()).isGreaterThan(2 * plain.runCount());
      assertThat(fixture.task().count(BagCounter.BAG_SELF_SPILLS))
          .isEqualTo(fixture.task().count(BagCounter.BAG_SPILLS))
          .isEqualTo(plain.runCount() + ordered.runCount() + distinct.runCount());
      assertSameSequence(contents(plain), input);
      assertSameSequence(contents(ordered), sorted(input));
      assertThat(distinct.size()).isEqualTo(distinctCount(input));
    }
  }

  @Test
  void zeroLeavesSpillingToTheMemoryManager() throws Exception {
    try (BagFixture fixture = new BagFixture(64L << 20, limit("0"))) {
      DataBag bag = fixture.factory.newDefaultBag();
      new RandomTuples(82, 1000).list(30_000).forEach(bag::add);
      assertThat(((SpongeBag) bag).runCount()).isZero();
      assertThat(fixture.task().count(BagCounter.BAG_SPILLS)).isZero();
    }
  }

  @Test
  void aBagThatCannotSpillRetriesOnlyAfterDoubling() throws Exception {
    Configuration conf = limit("0.001");
    conf.set("sponge.tiers", "pool");
    try (BagFixture fixture = new BagFixture(256L << 10, conf)) {
      List<Tuple> input = new RandomTuples(83, 1000).list(30_000);
      SpongeBag bag = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(bag::add);

      long failures = fixture.task().count(BagCounter.BAG_SPILL_FAILURES);
      assertThat(failures).isBetween(1L, 12L);
      assertSameSequence(contents(bag), input);
    }
  }

  private static int distinctCount(List<Tuple> tuples) {
    TreeSet<Tuple> unique = new TreeSet<>(TupleOrder.NATURAL);
    unique.addAll(tuples);
    return unique.size();
  }
}
