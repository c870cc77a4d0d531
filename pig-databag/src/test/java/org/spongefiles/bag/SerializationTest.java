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
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DataByteArray;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;
import org.junit.jupiter.api.Test;
import org.spongefiles.bag.task.TaskSponges;

/**
 * Java serialization (Pig serializes plans with constant bags into the job) keeps spilled tuples.
 */
class SerializationTest {

  /** The task attempt whose thread deserializes the bags: its pool is the fixture's. */
  private static final String ATTEMPT = "attempt_1_0001_r_000007_0";

  /**
   * Serializes {@code bag} and reads it back in a task attempt's thread whose configuration is the
   * fixture's, as a task deserializes its plan: the copy belongs to that attempt, and its
   * SpongeFiles would go to the fixture's pool, not to the default one of the JVM's shared
   * registry.
   */
  private static DataBag roundTrip(BagFixture fixture, DataBag bag) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(bag);
    }
    Configuration taskConf = new Configuration(fixture.conf);
    taskConf.set(TaskSponges.ATTEMPT_KEY, ATTEMPT);
    AtomicReference<Object> read = new AtomicReference<>();
    Thread attempt =
        new Thread(
            () -> {
              PigMapReduce.sJobConfInternal.set(taskConf);
              try (ObjectInputStream in =
                  new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                read.set(in.readObject());
              } catch (Exception | Error e) {
                read.set(e);
              }
            });
    attempt.start();
    attempt.join();
    if (read.get() instanceof Throwable) {
      throw new AssertionError("Could not read the bag back", (Throwable) read.get());
    }
    DataBag copy = (DataBag) read.get();
    assertThat(((SpongeBag) copy).owner().taskId()).isEqualTo(ATTEMPT);
    return copy;
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
        DataBag copy = roundTrip(fixture, bag);

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

      DataBag copy = roundTrip(fixture, bag);

      assertThat(spilled.get()).as("tuples spilled during serialization").isEqualTo(2_001);
      assertSameSequence(contents(copy), input);
      assertSameSequence(contents(bag), input);
      assertThat(fixture.task().liveFiles()).isEqualTo(((SpongeBag) bag).runCount());
    }
  }
}
