package org.spongefiles.bag;

import java.io.IOException;
import java.util.List;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.run.Run;
import org.spongefiles.bag.run.RunReader;
import org.spongefiles.bag.run.TupleSource;

/**
 * A default bag's tuples: every run in spill order, then memory, then the bag's tail, if it has one
 * (the tuples it wrote past its limit before it was read). When the bag spills while this source
 * reads memory, the tuples it was reading are now the first run written since (and the tail, if
 * any, the run after it); it reads that run from where it was (Pig's own bags fast-forward the same
 * way), then any later run, then memory again. A tail this source read becomes a listed run when a
 * tuple is added after it; the source then goes on with the runs after it and memory. Tuples added
 * after reading began are read too, as in Pig.
 */
final class SequentialSource implements TupleSource {
  private final SpongeBag bag;
  private int nextRun;
  private boolean inMemory;
  private int runsAtMemory;
  private int memoryIndex;
  private Run tail;
  private RunReader reader;

  SequentialSource(SpongeBag bag) {
    this.bag = bag;
  }

  @Override
  public Tuple next() throws IOException {
    while (true) {
      if (reader != null) {
        Tuple tuple = reader.next();
        if (tuple != null) {
          return tuple;
        }
        reader = null;
      }
      Run run;
      long skip = 0;
      synchronized (bag.lock()) {
        int runs = bag.runs().size();
        if (tail != null) {
          // The tail was read: whatever follows it is in the runs listed after it, then memory.
          int listed = bag.runs().indexOf(tail);
          if (listed < 0) {
            return null;
          }
          tail = null;
          nextRun = listed + 1;
          inMemory = false;
          memoryIndex = 0;
          continue;
        }
        if (inMemory && runs > runsAtMemory) {
          run = bag.runs().get(runsAtMemory);
          skip = memoryIndex;
          nextRun = runsAtMemory + 1;
          inMemory = false;
          memoryIndex = 0;
        } else if (!inMemory && nextRun < runs) {
          run = bag.runs().get(nextRun++);
        } else {
          if (!inMemory) {
            inMemory = true;
            runsAtMemory = runs;
          }
          List<Tuple> memory = bag.memoryList();
          if (memoryIndex < memory.size()) {
            return memory.get(memoryIndex++);
          }
          tail = bag.runs().tail();
          if (tail == null) {
            return null;
          }
          run = tail;
        }
      }
      reader = run.open(bag.task(), 1, bag.averageTupleBytes());
      reader.skip(skip);
    }
  }

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
