package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.backend.hadoop.executionengine.fetch.FetchContext;
import org.apache.pig.backend.hadoop.executionengine.fetch.FetchTaskContext;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
import org.apache.pig.tools.pigstats.PigStatusReporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.core.stats.SpongeStats;
import org.spongefiles.core.tier.TierKind;

/**
 * The SpongeFiles counter group, published through Pig's status reporter into Pig's own
 * counters-backed task context (the one of its fetch mode, which runs without a MapReduce task).
 */
class CountersTest {

  @AfterEach
  void detach() {
    PigStatusReporter.staticDataCleanup();
  }

  @Test
  void spillsAndReadsArePublishedAsTheyHappen() throws Exception {
    FetchTaskContext context = new FetchTaskContext(new FetchContext());
    PigStatusReporter.getInstance().setContext(context);
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(51, 1000).list(8_000);
      DataBag bag = fixture.factory.newSortedBag(null);
      DefaultBagTest.feed(input, 3, bag);
      SpongeStats stats = fixture.stats();

      assertThat(value(context, "BAG_SPILLS")).isEqualTo(3);
      assertThat(value(context, "BAG_SPILLED_TUPLES")).isEqualTo(6_000);
      assertThat(value(context, "POOL_BYTES_WRITTEN"))
          .isEqualTo(stats.bytesWritten(TierKind.POOL))
          .isPositive();
      assertThat(value(context, "FILES_CREATED")).isEqualTo(3);
      assertThat(value(context, "POOL_BYTES_READ")).isZero();
      assertThat(
              context
                  .getCounter(org.apache.pig.PigCounters.SPILLABLE_MEMORY_MANAGER_SPILL_COUNT)
                  .getValue())
          .as("Pig's own spill counter, as its bags count")
          .isEqualTo(3);

      BagAssert.contents(bag);
      assertThat(value(context, "POOL_BYTES_READ"))
          .isEqualTo(stats.bytesRead(TierKind.POOL))
          .isEqualTo(stats.bytesWritten(TierKind.POOL));
      assertThat(value(context, "BLOCKED_WRITE_MILLIS"))
          .isEqualTo(stats.blockedWriteNanos() / 1_000_000);
    }
  }

  @Test
  void countsWithoutATaskContextArePublishedOnceOneIsThere() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      DataBag bag = fixture.factory.newDefaultBag();
      new RandomTuples(52, 100).list(1_000).forEach(bag::add);
      bag.spill();
      FetchTaskContext context = new FetchTaskContext(new FetchContext());
      PigStatusReporter.getInstance().setContext(context);
      bag.add(new RandomTuples(53, 100).next());
      bag.spill();

      assertThat(value(context, "BAG_SPILLS")).isEqualTo(2);
      assertThat(value(context, "BAG_SPILLED_TUPLES")).isEqualTo(1_001);
    }
  }

  /**
   * Pig often stops reading a bag early (IsEmpty, a nested LIMIT). The reads of such an iterator
   * are counted, and its buffers returned, once it is garbage.
   */
  @Test
  void readsOfAnAbandonedIteratorAreCountedOnceItIsCollected() throws Exception {
    FetchTaskContext context = new FetchTaskContext(new FetchContext());
    PigStatusReporter.getInstance().setContext(context);
    try (BagFixture fixture = new BagFixture()) {
      DataBag bag = fixture.factory.newDefaultBag();
      new RandomTuples(54, 1000).list(5_000).forEach(bag::add);
      assertThat(bag.spill()).isEqualTo(5_000);
      assertThat(((SpongeBag) bag).spilledBytes()).isGreaterThan(256L << 10);
      readOneTuple(bag);
      assertThat(fixture.stats().bytesRead(TierKind.POOL)).as("not reported yet").isZero();

      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> {
                System.gc();
                return value(context, "POOL_BYTES_READ") > 0;
              });
      assertThat(value(context, "POOL_BYTES_READ"))
          .isEqualTo(fixture.stats().bytesRead(TierKind.POOL))
          .isEqualTo(64L << 10);
    }
  }

  private static void readOneTuple(DataBag bag) {
    Iterator<Tuple> abandoned = bag.iterator();
    assertThat((Object) abandoned.next()).isNotNull();
  }

  private static long value(FetchTaskContext context, String name) {
    return context.getCounter(BagCounter.GROUP, name).getValue();
  }
}
