package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;
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
}
