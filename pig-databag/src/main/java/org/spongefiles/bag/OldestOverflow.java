package org.spongefiles.bag;

import java.io.IOException;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.pig.data.Tuple;
import org.spongefiles.bag.run.RunWriter;
import org.spongefiles.bag.run.SpillRuns;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.bag.task.BagTask;

/**
 * The run a default bag not read yet appends its oldest tuples to when it passes its self-spill
 * limit, keeping the newest in memory (Pig's internal bag for a GROUP keeps what it holds and
 * writes the rest), and what happens when that run fails: the tuples appended before are lost with
 * it, so the bag's next add and read fail naming the task, as a task fails when one of Pig's own
 * bags cannot write its spill file. The run is listed after the bag's others when the bag is read
 * or spills all of memory. Guarded by the bag's lock.
 */
final class OldestOverflow {
  private final BagTask task;
  private final SpillRuns runs;
  private IllegalStateException lost;

  OldestOverflow(BagTask task, SpillRuns runs) {
    this.task = task;
    this.runs = runs;
  }

  /** Whether no run is open: the next move starts one. */
  boolean isClosed() {
    return runs.appending() == null;
  }

  /**
   * Moves the first {@code oldest} tuples of {@code memory} into the open run (opened now if none
   * is, then {@code opened} runs) and returns how many moved: 0 when the run could not be opened,
   * {@code failed} being told, and the tuples stay in memory.
   *
   * @throws IllegalStateException when appending to a run that already holds tuples fails: they are
   *     lost
   */
  long move(List<Tuple> memory, int oldest, Runnable opened, BiConsumer<Long, Exception> failed) {
    RunWriter writer = runs.appending();
    boolean opening = writer == null;
    try {
      if (opening) {
        writer = RunWriter.open(task, "pigbag");
        runs.startAppending(writer);
        opened.run();
      }
      for (int i = 0; i < oldest; i++) {
        writer.append(memory.get(i));
      }
    } catch (IOException | RuntimeException e) {
      runs.abandonAppending();
      if (opening) {
        failed.accept((long) oldest, e);
        return 0;
      }
      throw lose(e);
    }
    memory.subList(0, oldest).clear();
    return oldest;
  }

  /**
   * Lists the open run, if any, after the others, as readers and a spill of all of memory must find
   * it.
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
    runs.abandonAppending();
  }

  /**
   * The open run failed with {@code cause} and its tuples are lost: counts the failure, keeps it
   * for the bag's next add and read, and returns what to throw now.
   */
  private IllegalStateException lose(Exception cause) {
    task.count(BagCounter.BAG_SPILL_FAILURES, 1);
    lost =
        new IllegalStateException(
            "Unable to write the oldest tuples of a bag of "
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
