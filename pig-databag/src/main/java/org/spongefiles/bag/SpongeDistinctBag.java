package org.spongefiles.bag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.task.BagTask;

/**
 * A bag without duplicates, like Pig's {@code DistinctDataBag}, whose spills go to SpongeFiles.
 * Memory is a hash set until read; each spill writes it in Pig's default tuple order, and reading
 * merges runs and memory in that order, dropping duplicates across runs. As in Pig, {@link #size()}
 * counts by reading once the bag has spilled (a duplicate of a spilled tuple is only found then);
 * the count is kept until the bag changes.
 */
public final class SpongeDistinctBag extends OrderedBag {
  private static final long serialVersionUID = 1L;

  private transient long countedAt;

  SpongeDistinctBag(BagTask task) {
    super(task, new HashSet<>());
    this.countedAt = -1;
  }

  /** A bag that takes ownership of {@code tuples} (it does not copy them), as Pig's does. */
  SpongeDistinctBag(BagTask task, Set<Tuple> tuples) {
    super(task, tuples);
    this.countedAt = -1;
    adopt(tuples);
  }

  @Override
  BagKind kind() {
    return BagKind.DISTINCT;
  }

  @Override
  Comparator<Tuple> order() {
    return TupleOrder.NATURAL;
  }

  @Override
  boolean addToMemory(Tuple tuple) {
    if (!(mContents instanceof Set)) {
      // Reading turned memory into a sorted list; a set again keeps duplicates out.
      mContents = new HashSet<>(mContents);
      memoryReorganized();
    }
    return mContents.add(tuple);
  }

  @Override
  void sortMemory() {
    List<Tuple> sorted = new ArrayList<>(mContents);
    sorted.sort(TupleOrder.NATURAL);
    mContents = sorted;
  }

  @Override
  void cleared() {
    mContents = new HashSet<>();
    super.cleared();
  }

  /** Distinct tuples in memory and runs; counted by reading when the bag has runs. */
  @Override
  public long size() {
    long changes;
    synchronized (lock()) {
      changes = modifications();
      if (runs().size() == 0 || countedAt == changes) {
        return mSize;
      }
    }
    long count = 0;
    for (Iterator<Tuple> tuples = iterator(); tuples.hasNext(); tuples.next()) {
      count++;
    }
    synchronized (lock()) {
      if (modifications() == changes) {
        mSize = count;
        countedAt = changes;
      }
    }
    return count;
  }
}
