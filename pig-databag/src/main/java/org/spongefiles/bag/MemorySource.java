package org.spongefiles.bag;

import java.io.IOException;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.apache.pig.data.Tuple;

/**
 * The sorted memory of a sorted or distinct bag, as one source of its merge. When the bag spills
 * while this source reads it, the memory (already sorted) became the run written at that moment:
 * the source reads that run from where it was, as Pig's own bags do.
 */
final class MemorySource implements TupleSource {
  private final OrderedBag bag;
  private final int runsAtStart;
  private final long epoch;
  private int index;
  private RunReader reader;

  /**
   * Reads {@code bag}'s memory as sorted at {@code epoch}, when it had {@code runsAtStart} runs.
   */
  MemorySource(OrderedBag bag, int runsAtStart, long epoch) {
    this.bag = bag;
    this.runsAtStart = runsAtStart;
    this.epoch = epoch;
  }

  @Override
  public Tuple next() throws IOException {
    if (reader != null) {
      return reader.next();
    }
    Run spilled;
    synchronized (bag.lock()) {
      if (bag.epoch() != epoch) {
        throw new ConcurrentModificationException(
            "Tuples were added to a "
                + (bag.isDistinct() ? "distinct" : "sorted")
                + " bag after this iterator was opened and have been sorted in since; "
                + "open a new iterator after adding, as with Pig's own bags");
      }
      if (bag.runs().size() <= runsAtStart) {
        List<Tuple> memory = bag.memoryList();
        return index < memory.size() ? memory.get(index++) : null;
      }
      spilled = bag.runs().get(runsAtStart);
    }
    reader = spilled.open(bag.task());
    reader.skip(index);
    return reader.next();
  }

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
