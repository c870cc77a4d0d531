package org.spongefiles.bag;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.task.BagTask;

/**
 * Which of Pig's three bags a bag is: what {@code isSorted()} and {@code isDistinct()} answer, and
 * how the bag is made again from its serialized form ({@link SerializedBag}).
 */
enum BagKind {
  DEFAULT {
    @Override
    SpongeBag restore(BagTask task, Comparator<Tuple> order, List<Tuple> tuples) {
      return new SpongeDefaultBag(task, tuples);
    }
  },
  SORTED {
    @Override
    SpongeBag restore(BagTask task, Comparator<Tuple> order, List<Tuple> tuples) {
      SpongeBag bag = new SpongeSortedBag(task, order);
      bag.addAll(tuples);
      return bag;
    }
  },
  DISTINCT {
    @Override
    SpongeBag restore(BagTask task, Comparator<Tuple> order, List<Tuple> tuples) {
      return new SpongeDistinctBag(task, new HashSet<>(tuples));
    }
  };

  /**
   * A bag of this kind of {@code task}'s holding {@code tuples} ({@code order}: a sorted bag's).
   */
  abstract SpongeBag restore(BagTask task, Comparator<Tuple> order, List<Tuple> tuples);
}
