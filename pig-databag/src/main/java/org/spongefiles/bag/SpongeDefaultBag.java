package org.spongefiles.bag;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.data.Tuple;

/**
 * An unordered bag with duplicates, like Pig's {@code DefaultDataBag}, whose spills go to
 * SpongeFiles. Iteration returns the runs in spill order, then memory; tuples may be added at any
 * time, also while iterating.
 */
public final class SpongeDefaultBag extends SpongeBag {
  private static final long serialVersionUID = 1L;

  SpongeDefaultBag(BagTask task) {
    super(task, new ArrayList<>());
  }

  /** A bag that takes ownership of {@code tuples} (it does not copy them), as Pig's does. */
  SpongeDefaultBag(BagTask task, List<Tuple> tuples) {
    super(task, tuples);
    adopt(tuples);
  }

  @Override
  public boolean isSorted() {
    return false;
  }

  @Override
  public boolean isDistinct() {
    return false;
  }

  @Override
  boolean addToMemory(Tuple tuple) {
    return mContents.add(tuple);
  }

  @Override
  Iterable<Tuple> spillOrder() {
    return mContents;
  }

  @Override
  void restoreSpilled(List<Tuple> spilled) {
    List<Tuple> all = new ArrayList<>(spilled);
    all.addAll(mContents);
    mContents = all;
  }

  @Override
  void cleared() {}

  @Override
  public Iterator<Tuple> iterator() {
    return new SourceIterator(this, new SequentialSource(this));
  }
}
