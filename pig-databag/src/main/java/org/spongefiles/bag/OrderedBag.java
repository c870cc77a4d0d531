package org.spongefiles.bag;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.data.Tuple;

/**
 * What sorted and distinct bags share: memory is sorted when a spill writes it and when the first
 * iterator opens (as in Pig, where tuples are not to be added once reading began), runs are merged
 * in order, and a bag with more runs than {@code sponge.pig.merge.fanin} first merges them into
 * fewer, as Pig's bags do beyond 100 spill files.
 */
abstract class OrderedBag extends SpongeBag {
  private static final long serialVersionUID = 1L;

  private transient boolean readStarted;
  private transient long epoch;
  private transient Object setupLock;

  OrderedBag(BagTask task, Collection<Tuple> memory) {
    super(task, memory);
    this.setupLock = new Object();
  }

  /** The order of the bag's tuples and runs. */
  abstract Comparator<Tuple> order();

  /** Makes memory a list sorted in {@link #order()}; under the lock. */
  abstract void sortMemory();

  /** How many times memory was reordered; an open reader of memory must see the same. */
  final long epoch() {
    return epoch;
  }

  /** Tuples added after reading began: the next iterator or spill sorts memory again. */
  final void memoryChanged() {
    readStarted = false;
  }

  /** Memory was replaced or emptied under open readers; under the lock. */
  final void memoryReorganized() {
    readStarted = false;
    epoch++;
  }

  @Override
  final Iterable<Tuple> spillOrder() {
    if (!readStarted) {
      sortMemory();
      epoch++;
    }
    return memoryList();
  }

  @Override
  void cleared() {
    memoryReorganized();
  }

  @Override
  public final Iterator<Tuple> iterator() {
    synchronized (setupLock()) {
      mergeExcessRuns();
      List<Run> spilled;
      MemorySource memory;
      synchronized (lock()) {
        if (!readStarted) {
          sortMemory();
          readStarted = true;
          epoch++;
        }
        spilled = runs().snapshot();
        memory = new MemorySource(this, spilled.size(), epoch);
      }
      List<TupleSource> sources = new ArrayList<>(spilled.size() + 1);
      try {
        for (Run run : spilled) {
          sources.add(run.open(task()));
        }
      } catch (IOException e) {
        new RunMerge(sources, order(), isDistinct()).close();
        throw new IllegalStateException("Unable to open a run of a bag of " + task() + ": " + e, e);
      }
      sources.add(memory);
      return new SourceIterator(this, new RunMerge(sources, order(), isDistinct()));
    }
  }

  private Object setupLock() {
    synchronized (lock()) {
      if (setupLock == null) {
        setupLock = new Object();
      }
      return setupLock;
    }
  }

  /** Merges runs, {@code fanIn} at a time, until at most that many are left. */
  private void mergeExcessRuns() {
    int fanIn = task().mergeFanIn();
    while (runs().size() > fanIn) {
      List<Run> inputs = new ArrayList<>(runs().snapshot().subList(0, fanIn));
      Run merged;
      try {
        merged = merge(inputs);
      } catch (IOException e) {
        throw new IllegalStateException(
            "Unable to merge " + inputs.size() + " runs of a bag of " + task() + ": " + e, e);
      }
      runs().replace(inputs, merged);
      SpillRuns.deleteAll(inputs);
      task().count(BagCounter.BAG_RUN_MERGES, 1);
    }
  }

  private Run merge(List<Run> inputs) throws IOException {
    List<TupleSource> readers = new ArrayList<>(inputs.size());
    RunMerge merge = new RunMerge(readers, order(), isDistinct());
    try {
      for (Run run : inputs) {
        readers.add(run.open(task()));
      }
      return RunWriter.write(task(), () -> new SourceIterator(this, merge), "pigbag-merge");
    } finally {
      merge.close();
    }
  }
}
