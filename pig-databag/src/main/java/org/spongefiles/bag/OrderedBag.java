package org.spongefiles.bag;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.filler.PigFillers;
import org.spongefiles.bag.run.Run;
import org.spongefiles.bag.run.RunMerge;
import org.spongefiles.bag.run.RunWriter;
import org.spongefiles.bag.run.SpillRuns;
import org.spongefiles.bag.run.TupleSource;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.bag.task.BagTask;

/**
 * What sorted and distinct bags share: memory is sorted when a spill writes it and when the first
 * iterator opens (as in Pig, where tuples are not to be added once reading began), runs are merged
 * in order, and a bag with more runs than {@code sponge.pig.merge.fanin} first merges them into
 * fewer, as Pig's bags do beyond 100 spill files. Runs merged away stay readable for the iterators
 * already open on them (see {@link Run#retain()}), and readers of memory find the run it was
 * spilled into through their {@link SortedMemory}.
 */
abstract class OrderedBag extends SpongeBag {
  private static final long serialVersionUID = 1L;

  private final transient Object setupLock = new Object();
  private transient boolean readStarted;
  private transient SortedMemory sorting = new SortedMemory();

  OrderedBag(BagTask task, Collection<Tuple> memory) {
    super(task, memory);
  }

  /** The order of the bag's tuples and runs. */
  abstract Comparator<Tuple> order();

  /** Makes memory a list sorted in {@link #order()}; under the lock. */
  abstract void sortMemory();

  /**
   * Pig's nested ORDER and DISTINCT (POSort, PODistinct) give their internal bags a third of the
   * bag memory ({@code new InternalSortedBag(3, ...)}, {@code new InternalDistinctBag(3)}).
   */
  @Override
  final int sharers() {
    return PigFillers.NESTED;
  }

  /** Tuples were added to memory; readers open on it fail, the next iterator sorts it again. */
  final void memoryChanged() {
    if (readStarted) {
      memoryReorganized();
    }
  }

  /** Memory was replaced or emptied under open readers; under the lock. */
  final void memoryReorganized() {
    readStarted = false;
    sorting.changed();
    sorting = new SortedMemory();
  }

  @Override
  final Iterable<Tuple> spillOrder() {
    if (!readStarted) {
      // No reader is open on this sorting: one that was has seen memoryReorganized().
      sortMemory();
    }
    return memoryList();
  }

  @Override
  final void spilled(Run run) {
    sorting.spilled(run);
    sorting = new SortedMemory();
  }

  @Override
  void cleared() {
    memoryReorganized();
  }

  @Override
  public final Iterator<Tuple> iterator() {
    synchronized (setupLock) {
      mergeExcessRuns();
      List<Run> spilled;
      MemorySource memory;
      synchronized (lock()) {
        startReading();
        if (!readStarted) {
          sortMemory();
          readStarted = true;
        }
        spilled = runs().retainAll();
        memory = new MemorySource(this, sorting);
      }
      if (spilled.isEmpty()) {
        // Memory alone is already in order, and a distinct bag's holds no duplicates: no merge.
        return new SourceIterator(this, memory);
      }
      List<TupleSource> sources = new ArrayList<>(spilled.size() + 1);
      long tupleBytes = averageTupleBytes();
      try {
        for (Run run : spilled) {
          sources.add(run.open(task(), spilled.size(), tupleBytes));
        }
      } catch (IOException e) {
        sources.add(memory);
        new RunMerge(sources, order(), isDistinct()).close();
        throw new IllegalStateException("Unable to open a run of a bag of " + task() + ": " + e, e);
      } finally {
        SpillRuns.releaseAll(spilled);
      }
      sources.add(memory);
      return new SourceIterator(this, new RunMerge(sources, order(), isDistinct()));
    }
  }

  /**
   * Merges the oldest runs, {@code fanIn} at a time, until at most that many are left. The runs
   * merged leave the list; each is deleted once the iterators still reading it are done.
   */
  private void mergeExcessRuns() {
    int fanIn = task().settings().mergeFanIn();
    while (runs().size() > fanIn) {
      List<Run> inputs = runs().retainOldest(fanIn);
      try {
        Run merged = merge(inputs);
        SpillRuns.releaseAll(runs().replace(inputs, merged));
      } catch (IOException e) {
        throw new IllegalStateException(
            "Unable to merge " + inputs.size() + " runs of a bag of " + task() + ": " + e, e);
      } finally {
        SpillRuns.releaseAll(inputs);
      }
      task().count(BagCounter.BAG_RUN_MERGES, 1);
    }
  }

  private Run merge(List<Run> inputs) throws IOException {
    List<TupleSource> readers = new ArrayList<>(inputs.size());
    RunMerge merge = new RunMerge(readers, order(), isDistinct());
    try {
      long tupleBytes = averageTupleBytes();
      for (Run run : inputs) {
        readers.add(run.open(task(), inputs.size(), tupleBytes));
      }
      return RunWriter.write(task(), () -> new SourceIterator(this, merge), "pigbag-merge");
    } finally {
      merge.close();
    }
  }
}
