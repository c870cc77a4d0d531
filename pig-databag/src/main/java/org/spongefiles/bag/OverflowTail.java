package org.spongefiles.bag;

import java.io.IOException;
import java.util.function.LongConsumer;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.run.RunWriter;
import org.spongefiles.bag.run.SpillRuns;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.bag.task.BagTask;

/**
 * The run a default bag not read yet writes the tuples past its self-spill limit to, as Pig's
 * internal bag for a GROUP does: memory keeps the tuples it holds and every later tuple goes
 * straight into one run, so a tuple past the limit is garbage as soon as it is written (it never
 * lives on in the heap to be moved later), and a group that ends just past the limit writes just
 * what came past it. The run is read after memory: it becomes the bag's tail when the bag is read
 * ({@link SpillRuns#tail()}). If the run fails, the tuples appended before are lost with it: the
 * bag's next add and read fail naming the task, as a task fails when one of Pig's own bags cannot
 * write its spill file. Guarded by the bag's lock.
 */
final class OverflowTail {
  /** Appended tuples are counted in the task's counters this many at a time, and at the end. */
  private static final int COUNT_EVERY = 4096;

  private final BagTask task;
  private final SpillRuns runs;
  private final LongConsumer written;
  private IllegalStateException lost;
  private long uncounted;

  /** {@code written} counts tuples written into the run, some at a time. */
  OverflowTail(BagTask task, SpillRuns runs, LongConsumer written) {
    this.task = task;
    this.runs = runs;
    this.written = written;
  }

  /** Whether the bag writes its new tuples into the run instead of memory. */
  boolean isOpen() {
    return runs.appending() != null;
  }

  /**
   * Opens the run the tuples after this one go to.
   *
   * @throws IOException when the run cannot be created; nothing changed
   */
  void open() throws IOException {
    runs.startAppending(RunWriter.open(task, "pigbag"));
  }

  /**
   * Appends {@code tuple} to the open run.
   *
   * @throws IllegalStateException when the run fails: the tuples appended before are lost
   */
  void append(Tuple tuple) {
    try {
      runs.appending().append(tuple);
    } catch (IOException | RuntimeException e) {
      runs.abandonAppending();
      throw lose(e);
    }
    if (++uncounted == COUNT_EVERY) {
      count();
    }
  }

  /**
   * Finishes the open run, if any, as the bag's tail, read after memory.
   *
   * @throws IllegalStateException when that run could not be finished, or an earlier append to it
   *     failed: its tuples are lost
   */
  void finish() {
    checkNotLost();
    try {
      runs.finishAppending();
    } catch (IOException | RuntimeException e) {
      throw lose(e);
    } finally {
      count();
    }
  }

  /**
   * @throws IllegalStateException when the open run's tuples were lost
   */
  void checkNotLost() {
    if (lost != null) {
      throw lostFailure();
    }
  }

  /** Deletes the open run unread and forgets a loss, as when the bag is cleared. */
  void reset() {
    lost = null;
    uncounted = 0;
    runs.abandonAppending();
  }

  /** Counts the tuples appended since last counted, as Pig counts its self-spilled records. */
  private void count() {
    if (uncounted > 0) {
      written.accept(uncounted);
      uncounted = 0;
    }
  }

  /**
   * The open run failed with {@code cause} and its tuples are lost: counts the failure, keeps it
   * for the bag's next add and read, and returns what to throw now.
   */
  private IllegalStateException lose(Exception cause) {
    task.count(BagCounter.BAG_SPILL_FAILURES, 1);
    lost =
        new IllegalStateException(
            "Unable to write the tuples past the limit of a bag of "
                + task.taskId()
                + " to SpongeFiles: "
                + cause
                + "; the tuples written before are lost with the run, so the task fails (as it does"
                + " when one of Pig's own bags cannot write its spill file)",
            cause);
    return lostFailure();
  }

  private IllegalStateException lostFailure() {
    return new IllegalStateException(lost.getMessage(), lost);
  }
}
