package org.spongefiles.bag;

import java.util.ArrayList;
import java.util.Comparator;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.task.BagTask;

/**
 * A bag read in the order of a comparator (an ORDER BY's, or Pig's default tuple order), like Pig's
 * {@code SortedDataBag}, whose spills go to SpongeFiles: each spill writes memory sorted, and
 * reading merges the runs with memory. The comparator is serialized with the bag, so it must be
 * serializable, as Pig's own sort comparators are.
 */
public final class SpongeSortedBag extends OrderedBag {
  private static final long serialVersionUID = 1L;

  private final Comparator<Tuple> comparator;

  /** A bag in {@code comparator}'s order; null means Pig's default tuple order. */
  SpongeSortedBag(BagTask task, Comparator<Tuple> comparator) {
    super(task, new ArrayList<>());
    this.comparator = comparator == null ? TupleOrder.NATURAL : comparator;
  }

  @Override
  BagKind kind() {
    return BagKind.SORTED;
  }

  @Override
  Comparator<Tuple> order() {
    return comparator;
  }

  @Override
  boolean addToMemory(Tuple tuple) {
    memoryChanged();
    return mContents.add(tuple);
  }

  @Override
  void sortMemory() {
    memoryList().sort(comparator);
  }

  @Override
  Comparator<Tuple> serializedOrder() {
    return comparator;
  }
}
