package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.spongefiles.bag.BagAssert.assertSameSequence;
import static org.spongefiles.bag.BagAssert.contents;
import static org.spongefiles.bag.DefaultBagTest.drain;
import static org.spongefiles.bag.DefaultBagTest.feed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DistinctDataBag;
import org.apache.pig.data.Tuple;
import org.junit.jupiter.api.Test;

/** Distinct bags against Pig's DistinctDataBag, fed and spilled the same way. */
class DistinctBagTest {

  private static List<Tuple> distinctSorted(List<Tuple> tuples) {
    TreeSet<Tuple> set = new TreeSet<>(TupleOrder.NATURAL);
    set.addAll(tuples);
    return new ArrayList<>(set);
  }

  @Test
  void duplicatesInDifferentRunsAreReadOnce() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(21, 100).repeating(30_000, 3_000);
      SpongeBag ours = (SpongeBag) fixture.factory.newDistinctBag();
      DataBag pigs = new DistinctDataBag();
      int step = input.size() / 5;
      for (int i = 0; i < input.size(); i++) {
        ours.add(input.get(i));
        pigs.add(input.get(i));
        if ((i + 1) % step == 0 && i + 1 < input.size()) {
          assertThat(ours.spill()).isEqualTo(pigs.spill()).isPositive();
        }
      }
      assertThat(ours.runCount()).isEqualTo(4);

      List<Tuple> expected = distinctSorted(input);
      assertSameSequence(contents(pigs), expected);
      for (int pass = 0; pass < 2; pass++) {
        assertSameSequence(contents(ours), expected);
      }
      assertThat(ours.size()).isEqualTo(pigs.size()).isEqualTo(expected.size());
      assertThat(ours.isDistinct()).isTrue();
      pigs.clear();
    }
  }

  @Test
  void aSpillWhileReadingContinuesWithoutDuplicates() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(22, 100).repeating(20_000, 4_000);
      DataBag ours = fixture.factory.newDistinctBag();
      DataBag pigs = new DistinctDataBag();
      feed(input.subList(0, 10_000), 0, ours, pigs);
      assertThat(ours.spill()).isEqualTo(pigs.spill());
      feed(input.subList(10_000, 20_000), 0, ours, pigs);
      Iterator<Tuple> oursReader = ours.iterator();
      Iterator<Tuple> pigsReader = pigs.iterator();
      List<Tuple> oursRead = new ArrayList<>();
      List<Tuple> pigsRead = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        oursRead.add(oursReader.next());
        pigsRead.add(pigsReader.next());
      }
      assertThat(ours.spill()).isEqualTo(pigs.spill()).isPositive();
      drain(oursReader, oursRead);
      drain(pigsReader, pigsRead);

      assertSameSequence(oursRead, pigsRead);
      assertSameSequence(oursRead, distinctSorted(input));
      pigs.clear();
    }
  }

  @Test
  void aBagGivenASetOwnsIt() throws Exception {
    try (BagFixture fixture = new BagFixture()) {
      List<Tuple> input = new RandomTuples(23, 100).repeating(2_000, 500);
      DataBag ours = fixture.factory.newDistinctBag(new HashSet<>(input));
      assertThat(ours.size()).isEqualTo(distinctSorted(input).size());
      ours.spill();
      input.forEach(ours::add);
      assertSameSequence(contents(ours), distinctSorted(input));
      assertThat(ours.size()).isEqualTo(distinctSorted(input).size());
      assertThat(fixture.factory.newDistinctBag(null).size()).isZero();
    }
  }
}
