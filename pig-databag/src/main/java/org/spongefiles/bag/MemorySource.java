package org.spongefiles.bag;

import java.io.IOException;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.run.Run;
import org.spongefiles.bag.run.RunReader;
import org.spongefiles.bag.run.TupleSource;

/**
 * The sorted memory of a sorted or distinct bag, as one source of its merge. When the bag spills
 * while this source reads it, the memory (already sorted) became the run written at that moment:
 * the source reads that run from where it was, as Pig's own bags do.
 */
final class MemorySource implements TupleSource {
  private final OrderedBag bag;
  private SortedMemory sorting;
  private int index;
  private RunReader reader;

  /** Reads {@code bag}'s memory as sorted in {@code sorting}; under the bag's lock. */
  MemorySource(OrderedBag bag, SortedMemory sorting) {
    this.bag = bag;
    this.sorting = sorting;
    sorting.readerOpened();
  }

  @Override
  public Tuple next() throws IOException {
    if (reader != null) {
      return reader.next();
    }
    if (sorting == null) {
      return null;
    }
    Run spilled;
    synchronized (bag.lock()) {
      spilled = sorting.spilledInto();
      if (spilled == null) {
        if (sorting.isChanged()) {
          throw new ConcurrentModificationException(
              "Tuples were added to a "
                  + (bag.isDistinct() ? "distinct" : "sorted")
                  + " bag after this iterator was opened, or the bag was cleared; "
                  + "open a new iterator after adding, as with Pig's own bags");
        }
        List<Tuple> memory = bag.memoryList();
        if (index < memory.size()) {
          return memory.get(index++);
        }
        leave();
        return null;
      }
    }
    // The sorting holds the run until this source lets go of it, after the reader took its own.
    reader = spilled.open(bag.task(), 1, bag.averageTupleBytes());
    synchronized (bag.lock()) {
      leave();
    }
    reader.skip(index);
    return reader.next();
  }

  /** Under the bag's lock. */
  private void leave() {
    if (sorting != null) {
      sorting.readerLeft();
      sorting = null;
    }
  }

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
    synchronized (bag.lock()) {
      leave();
    }
  }
}
