package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.Tuple;

/** Reading bags whole and comparing what they return. */
final class BagAssert {
  private BagAssert() {}

  /** Every tuple {@code bag} returns, in iteration order, with the count its size() claims. */
  static List<Tuple> contents(DataBag bag) {
    List<Tuple> tuples = new ArrayList<>();
    Iterator<Tuple> iterator = bag.iterator();
    while (iterator.hasNext()) {
      tuples.add(iterator.next());
    }
    assertThat((Object) iterator.next()).as("next() past the end, as Pig's bags").isNull();
    return tuples;
  }

  /** The same tuples in the same order, compared field by field (nested bags by content). */
  static void assertSameSequence(List<Tuple> actual, List<Tuple> expected) {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      Tuple a = actual.get(i);
      Tuple e = expected.get(i);
      if (TupleOrder.NATURAL.compare(a, e) != 0) {
        throw new AssertionError("tuple " + i + " differs: " + a + " != " + e);
      }
    }
  }

  /** The same multiset of tuples, in any order. */
  static void assertSameMultiset(List<Tuple> actual, List<Tuple> expected) {
    assertSameSequence(sorted(actual), sorted(expected));
  }

  static List<Tuple> sorted(List<Tuple> tuples) {
    List<Tuple> copy = new ArrayList<>(tuples);
    copy.sort(TupleOrder.NATURAL);
    return copy;
  }

  /** Non-decreasing under {@code order}. */
  static void assertOrdered(List<Tuple> tuples, Comparator<Tuple> order) {
    for (int i = 1; i < tuples.size(); i++) {
      if (order.compare(tuples.get(i - 1), tuples.get(i)) > 0) {
        throw new AssertionError(
            "tuple " + i + " is out of order: " + tuples.get(i - 1) + " > " + tuples.get(i));
      }
    }
  }
}
