package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DataByteArray;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;
import org.junit.jupiter.api.Test;

/**
 * Java serialization (Pig serializes plans with constant bags into the job) keeps spilled tuples.
 */
class SerializationTest {

  private static DataBag roundTrip(DataBag bag) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(bag);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (DataBag) in.readObject();
    }
  }

  @Test
  void spilledBagsOfEveryKindComeBackWhole() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(71, 300).repeating(6_000, 2_000);
      DataBag[] bags = {
        fixture.factory.newDefaultBag(),
        fixture.factory.newSortedBag(new SortedBagTest.ByNumberDescending()),
        fixture.factory.newDistinctBag()
      };
      DefaultBagTest.feed(input, 2, bags);
      for (DataBag bag : bags) {
        List<Tuple> before = contents(bag);
        DataBag copy = roundTrip(bag);

        assertThat(copy.getClass()).isEqualTo(bag.getClass());
        assertThat(((SpongeBag) copy).runCount()).isZero();
        assertThat(copy.size()).isEqualTo(bag.size());
        if (bag.isSorted() || bag.isDistinct()) {
          assertSameSequence(contents(copy), before);
        } else {
          BagAssert.assertSameMultiset(contents(copy), before);
        }
      }
    }
  }

  /**
   * Bytes that, while Java serialization writes them, make Pig's memory manager (another thread)
   * spill the bag they are in: a spill landing in the middle of serializing that bag.
   */
  static final class SpillingBytes extends DataByteArray {
    private static final long serialVersionUID = 1L;
    private final transient DataBag bag;
    private final transient AtomicLong spilled;

    SpillingBytes(DataBag bag, AtomicLong spilled) {
      super(new byte[] {1, 2, 3});
      this.bag = bag;
      this.spilled = spilled;
    }

    private void writeObject(ObjectOutputStream out) throws java.io.IOException {
      if (bag != null) {
        Thread memoryManager = new Thread(() -> spilled.addAndGet(bag.spill()));
        memoryManager.start();
        try {
          memoryManager.join(30_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      out.defaultWriteObject();
    }
  }

  @Test
  void aSpillWhileTheBagIsBeingSerializedWritesEveryTupleOnce() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(72, 300).list(3_000);
      DataBag bag = fixture.factory.newDefaultBag();
      DefaultBagTest.feed(input.subList(0, 2_000), 1, bag);
      AtomicLong spilled = new AtomicLong();
      Tuple trigger = TupleFactory.getInstance().newTuple(new SpillingBytes(bag, spilled));
      input.subList(2_000, 3_000).forEach(bag::add);
      bag.add(trigger);
      input.add(trigger);

      DataBag copy = roundTrip(bag);

      assertThat(spilled.get()).as("tuples spilled during serialization").isEqualTo(2_001);
      assertSameSequence(contents(copy), input);
      assertSameSequence(contents(bag), input);
      assertThat(fixture.task().liveFiles()).isEqualTo(((SpongeBag) bag).runCount());
    }
  }
}
