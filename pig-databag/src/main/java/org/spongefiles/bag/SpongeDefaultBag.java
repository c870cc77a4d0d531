package org.spongefiles.bag;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.filler.PigFillers;
import org.spongefiles.bag.task.BagTask;

/**
 * An unordered bag with duplicates, like Pig's {@code DefaultDataBag}, whose spills go to
 * SpongeFiles. Iteration returns the tuples in the order they were added: the runs in spill order,
 * then memory, then the tail; tuples may be added at any time, also while iterating.
 *
 * <p>Until it is first read, a bag past its self-spill limit keeps what it holds in memory and
 * writes every later tuple straight into one run, its tail (see {@link OverflowTail}), as Pig's
 * internal bag for a GROUP keeps what it holds and writes the rest: a group that ends just past the
 * limit writes little, and no tuple past the limit stays in the heap. Once read, a spill writes all
 * of memory, which is what its readers expect.
 */
public final class SpongeDefaultBag extends SpongeBag {
  private static final long serialVersionUID = 1L;

  private final transient Siblings siblings;
  private transient boolean readStarted;

  /** An empty bag, one of the set the calling thread is making (see {@link Siblings}). */
  SpongeDefaultBag(BagTask task) {
    super(task, new ArrayList<>());
    this.siblings = Siblings.join();
  }

  /** A bag that takes ownership of {@code tuples} (it does not copy them), as Pig's does. */
  SpongeDefaultBag(BagTask task, List<Tuple> tuples) {
    super(task, tuples);
    this.siblings = Siblings.alone();
    adopt(tuples);
  }

  @Override
  BagKind kind() {
    return BagKind.DEFAULT;
  }

  @Override
  boolean addToMemory(Tuple tuple) {
    siblings.touch();
    return mContents.add(tuple);
  }

  @Override
  Iterable<Tuple> spillOrder() {
    return mContents;
  }

  @Override
  boolean writesPastLimit() {
    return !readStarted;
  }

  @Override
  void cleared() {
    readStarted = false;
  }

  /**
   * Pig's GROUP gives its internal bag all of the bag memory ({@code POPackage} passes its number
   * of inputs). A COGROUP or JOIN of n inputs gives each of its bags a 1/n share: ours learn n from
   * the bags made together ({@link #inputs()}).
   */
  @Override
  int sharers() {
    return PigFillers.GROUP;
  }

  /**
   * The bags made together with this one before any was filled: {@code POPackage}'s bags of one
   * key, one per input, whose number stock Pig divides the share by.
   */
  @Override
  int inputs() {
    return siblings.count();
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when the run holding the bag's oldest tuples could not be written
   */
  @Override
  public Iterator<Tuple> iterator() {
    synchronized (lock()) {
      siblings.touch();
      startReading();
      readStarted = true;
    }
    return new SourceIterator(this, new SequentialSource(this));
  }
}
