package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.sorted;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.BagMemory;

/**
 * The bags' readers and writers count in the bags' share of the heap: while a sorted bag merges its
 * runs, the other bags of the task spill themselves earlier by what the merge's readers hold, the
 * merge's buffers shrink to a quarter of the share, and everything is given back when the readers
 * are done.
 */
class BagMemoryTest {

  @Test
  void aMergesReadersTakeFromTheShareOfEveryBagUntilTheyAreDone() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(PigBagOptions.BAG_MEMORY.key(), "0.001");
    // The sorted bag below is filled by this test, not by Pig's nested ORDER: every bag
    // self-spills.
    conf.set(PigBagOptions.SELF_SPILL.key(), "always");
    try (BagFixture fixture = new BagFixture(64L << 20, conf)) {
      BagMemory memory = fixture.task().memory();
      long share = memory.share();
      List<Tuple> input = new RandomTuples(91, 1000).list(30_000);
      SpongeBag ordered = (SpongeBag) fixture.factory.newSortedBag(null);
      input.forEach(ordered::add);
      assertThat(ordered.runCount()).as("self-spilled runs").isGreaterThan(8);
      SpongeBag group = (SpongeBag) fixture.factory.newDefaultBag();
      assertThat(memory.held()).as("held after the spills' writers closed").isZero();
      assertThat(group.selfSpillLimit()).isEqualTo(share);

      Iterator<Tuple> reading = ordered.iterator();
      List<Tuple> read = new ArrayList<>();
      read.add(reading.next());
      // Runs past the fan-in were merged by the iterator; a reader is open on each run left.
      int runs = ordered.runCount();

      int buffer = memory.readBuffer(runs);
      assertThat(buffer)
          .as("each of %d readers' buffer, a share of %d bytes", runs, share)
          .isLessThan(fixture.task().memory().readBuffer(1))
          .isGreaterThanOrEqualTo(BagMemory.MIN_READ_BUFFER);
      assertThat((long) buffer * runs).isLessThanOrEqualTo(Math.max(share / 4, 4096L * runs));
      long held = runs * (buffer + ordered.averageTupleBytes());
      assertThat(memory.held()).isEqualTo(held);
      assertThat(group.selfSpillLimit()).isEqualTo(Math.max(share / 4, share - held));
      assertThat(ordered.selfSpillLimit()).isEqualTo(Math.max(share / 4, share - held) / 3);

      reading.forEachRemaining(read::add);
      assertSameSequence(read, sorted(input));
      assertThat(memory.held()).as("held once every reader reached its end").isZero();
      assertThat(group.selfSpillLimit()).isEqualTo(share);
    }
  }

  @Test
  void theShareLeftForTuplesNeverFallsBelowAQuarter() {
    BagMemory memory = new BagMemory(1 << 20, 64 << 10);
    memory.hold(2 << 20);
    assertThat(memory.tupleShare()).isEqualTo(256 << 10);
    memory.free(2 << 20);
    assertThat(memory.tupleShare()).isEqualTo(1 << 20);
    assertThat(memory.readBuffer(1)).isEqualTo(64 << 10);
    assertThat(memory.readBuffer(8)).isEqualTo(32 << 10);
    assertThat(memory.readBuffer(1000)).isEqualTo(BagMemory.MIN_READ_BUFFER);
    assertThat(new BagMemory(0, 64 << 10).readBuffer(1000)).isEqualTo(64 << 10);
  }
}
