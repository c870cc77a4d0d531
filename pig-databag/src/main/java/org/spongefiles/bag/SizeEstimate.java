package org.spongefiles.bag;

import org.apache.pig.data.Tuple;

/**
 * Pig's estimate of the heap a bag holds, as {@code DefaultAbstractBag} makes it: the average size
 * of sampled tuples (every tenth added, up to a hundred) times the tuples in memory, plus the
 * collection's references and the runs' bookkeeping. Pig's memory manager spills the largest bags
 * first, and a bag spills itself when the estimate passes its limit. Guarded by the bag's lock.
 */
final class SizeEstimate {
  /** Heap a run costs its bag: the Run, its SpongeFile and chunk records. */
  private static final long RUN_OVERHEAD = 256;

  /** Tuples whose size is sampled for the memory estimate (every tenth added, as Pig does). */
  private static final int SAMPLE_SIZE = 100;

  private static final int SAMPLE_FREQUENCY = 10;

  private long added;
  private long sampledBytes;
  private int sampledTuples;

  /** Counts {@code tuple} as added, sampling its size if it is one of those sampled. */
  void sample(Tuple tuple) {
    if (sampledTuples < SAMPLE_SIZE && added++ % SAMPLE_FREQUENCY == 0 && tuple != null) {
      sampledBytes += tuple.getMemorySize();
      sampledTuples++;
    }
  }

  /** Pig's estimate of the heap one tuple takes, from the sampled ones; 0 before any. */
  long averageTupleBytes() {
    return sampledTuples == 0 ? 0 : sampledBytes / sampledTuples;
  }

  /** Heap held by {@code inMemory} tuples and {@code runs} runs. */
  long bytes(long inMemory, int runs) {
    long references = Math.max(40, roundToEight(4 + inMemory * 4));
    return averageTupleBytes() * inMemory + 84 + references + runs * RUN_OVERHEAD;
  }

  /** Forgets every sample, as when the bag is cleared. */
  void reset() {
    added = 0;
    sampledBytes = 0;
    sampledTuples = 0;
  }

  private static long roundToEight(long bytes) {
    return 8 * ((bytes + 7) / 8);
  }
}
