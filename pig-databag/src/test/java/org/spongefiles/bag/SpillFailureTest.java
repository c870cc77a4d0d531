package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagCounter;

/** A spill that cannot be stored keeps the tuples in memory: nothing is lost. */
class SpillFailureTest {

  @Test
  void whenEveryTierIsFullTheTuplesStayInMemory() throws Exception {
    Configuration poolOnly = new Configuration(false);
    poolOnly.set("sponge.tiers", "pool");
    try (BagFixture fixture = new BagFixture(512L << 10, poolOnly)) {
      List<Tuple> input = new RandomTuples(61, 1000).list(20_000);
      SpongeBag bag = (SpongeBag) fixture.factory.newDefaultBag();
      input.forEach(bag::add);

      assertThat(bag.spill()).isZero();

      assertThat(bag.inMemory()).isEqualTo(20_000);
      assertThat(bag.runCount()).isZero();
      assertThat(fixture.task().count(BagCounter.BAG_SPILL_FAILURES)).isEqualTo(1);
      assertThat(fixture.task().liveFiles()).as("the partial SpongeFile is deleted").isZero();
      assertSameSequence(contents(bag), input);

      bag.clear();
      input.subList(0, 100).forEach(bag::add);
      assertThat(bag.spill()).as("a small spill fits again").isEqualTo(100);
      assertSameSequence(contents(bag), input.subList(0, 100));
    }
  }
}
