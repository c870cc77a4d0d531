package org.spongefiles.bag;

import java.io.IOException;
import org.apache.pig.PigCounters;
import org.apache.pig.PigWarning;
import org.apache.pig.data.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.bag.run.Run;
import org.spongefiles.bag.run.RunCleaner;
import org.spongefiles.bag.run.RunWriter;
import org.spongefiles.bag.run.SpillRuns;
import org.spongefiles.bag.task.BagCounter;
import org.spongefiles.bag.task.BagTask;

/**
 * How one bag's tuples leave the heap: when (its {@link SelfSpillLimit}, and the {@link GroupRole}
 * that keeps Pig's memory manager off a GROUP's bag) and how: all of memory into a new run of its
 * {@link SpillRuns}, or, for a default bag not read yet past its limit, every later tuple into its
 * {@link OverflowTail}. It counts what it wrote in the task's and Pig's counters, registers the
 * bag's runs with the {@link RunCleaner} at the first spill, and keeps a failed spill's tuples in
 * memory. Everything but the constructor runs under the bag's lock, or takes it.
 *
 * <p>Most bags never pass their limit: the tail and the group role are made only when a bag needs
 * them, and nothing is allocated per tuple added, so that a bag that never spills costs the heap
 * little more than Pig's own.
 */
final class BagSpill {
  /** A failed spill is logged as the bag's. */
  private static final Logger LOG = LoggerFactory.getLogger(SpongeBag.class);

  private final SpongeBag bag;
  private final BagTask task;
  private final SpillRuns runs;
  private final SelfSpillLimit limit;

  /** Made when the bag first writes past its limit. */
  private OverflowTail overflow;

  /** Made when the bag is found to be a GROUP's or COGROUP's. */
  private GroupRole group;

  private boolean cleanerRegistered;

  BagSpill(SpongeBag bag, BagTask task, SpillRuns runs) {
    this.bag = bag;
    this.task = task;
    this.runs = runs;
    this.limit = new SelfSpillLimit(task);
  }

  /**
   * Writes {@code tuple} to the bag's open tail run, if it writes the tuples past its limit there,
   * and answers true; otherwise, if the bag was read and has a tail, lists memory ahead of it (see
   * {@link #listTail()}) so that the tuple, added to memory, follows both. Under the lock.
   *
   * @throws IllegalStateException when the tail run failed, or memory could not be written ahead of
   *     it
   */
  boolean appendedToTail(Tuple tuple) {
    if (overflow == null) {
      // Only a bag that wrote past its limit has a tail.
      return false;
    }
    overflow.checkNotLost();
    if (overflow.isOpen()) {
      overflow.append(tuple);
      return true;
    }
    if (runs.tail() != null) {
      listTail();
    }
    return false;
  }

  /**
   * Whether memory, an estimated {@code estimate} bytes, holds more than the bag's self-spill
   * limit; the first time it holds more than the smallest limit a bag can have, the task's rule
   * decides the bag's part from who fills it (a stack walk), and a bag found to be a GROUP's learns
   * whether it is a COGROUP's. Under the lock.
   */
  boolean isFull(long estimate) {
    boolean undecided = !limit.isDecided();
    boolean full = limit.exceeded(estimate, bag.sharers(), bag.inputs());
    if (undecided && limit.isGroup()) {
      if (group == null) {
        group = new GroupRole();
      }
      group.found(bag, task);
    }
    return full;
  }

  /**
   * The bag's self-spill limit in bytes (see {@link SpongeBag#selfSpillLimit()}). Under the lock.
   */
  long limitBytes() {
    return limit.bytes(bag.sharers());
  }

  /**
   * Spills memory into a new run, or, for a default bag not read yet past its limit, opens its tail
   * run (see {@link OverflowTail}); {@code self} when the bag reached its own limit.
   */
  long spill(boolean self) {
    long count;
    synchronized (bag.lock()) {
      count = bag.memory().size();
      if (count == 0 || task.isClosed()) {
        return 0;
      }
      if (!self && group != null && group.leftToItself(limit.isGroup())) {
        return 0;
      }
      if (self && bag.writesPastLimit()) {
        if (!openTail(count)) {
          return 0;
        }
        count = 0;
      } else if (!spillAll(self, count)) {
        return 0;
      }
    }
    task.count(BagCounter.BAG_SPILLS, 1);
    if (self) {
      // Pig counts its own bags' self-spills the same way: a bag once, each tuple written.
      task.count(BagCounter.BAG_SELF_SPILLS, 1);
      bag.incPigSpillCount(PigCounters.PROACTIVE_SPILL_COUNT_BAGS);
      if (count > 0) {
        countWritten(count);
      }
    } else {
      task.count(BagCounter.BAG_SPILLED_TUPLES, count);
      bag.incPigSpillCount(PigCounters.SPILLABLE_MEMORY_MANAGER_SPILL_COUNT);
    }
    task.publishCounters();
    return count;
  }

  /** {@code count} tuples were written by the bag's own choice (Pig's proactive records). */
  private void countWritten(long count) {
    task.count(BagCounter.BAG_SPILLED_TUPLES, count);
    bag.incPigSpillCount(PigCounters.PROACTIVE_SPILL_COUNT_RECS, count);
    task.publishCounters();
  }

  /**
   * Opens the tail run, memory holding its {@code inMemory} tuples as they are; false if it could
   * not be opened (memory keeps growing, the bag retries at twice its size). Under the lock.
   */
  private boolean openTail(long inMemory) {
    if (overflow == null) {
      overflow = new OverflowTail(task, runs, this::countWritten);
    }
    try {
      overflow.open();
    } catch (IOException | RuntimeException e) {
      spillFailed(true, inMemory, e);
      return false;
    }
    registerCleaner();
    limit.spilled();
    return true;
  }

  /**
   * A tuple is added after the bag's tail (the bag was read): writes memory, which comes before the
   * tail, into a run and lists the tail after it, so the new tuple follows both. Under the lock.
   *
   * @throws IllegalStateException when memory could not be written (it stays, the tuple is not
   *     added)
   */
  private void listTail() {
    long count = bag.memory().size();
    if (count == 0) {
      runs.listTail();
      return;
    }
    if (!spillAll(false, count)) {
      throw new IllegalStateException(
          "Unable to write the "
              + count
              + " tuples in memory of a bag of "
              + task.taskId()
              + " ahead of its tail run, so a tuple added after reading cannot follow them");
    }
    task.count(BagCounter.BAG_SPILLS, 1);
    task.count(BagCounter.BAG_SPILLED_TUPLES, count);
    task.publishCounters();
  }

  /**
   * Writes all of memory, {@code count} tuples, into a new run, listed after the others and before
   * the tail, if there is one, which is then listed after it (the tail is read after memory); false
   * if it failed. Under the lock.
   */
  private boolean spillAll(boolean self, long count) {
    Run run;
    try {
      run = RunWriter.write(task, bag.spillOrder(), "pigbag");
    } catch (IOException | RuntimeException e) {
      spillFailed(self, count, e);
      return false;
    }
    runs.add(run);
    runs.listTail();
    bag.spilled(run);
    registerCleaner();
    bag.memoryWritten();
    limit.spilled();
    return true;
  }

  /** The bag's GROUP/COGROUP decision; null until it is found to be a group's. */
  GroupRole group() {
    return group;
  }

  /**
   * The bag is read (iterated or serialized): finishes the run it was writing the tuples past its
   * limit to, if any, as its tail (see {@link OverflowTail#finish()}). Under the lock.
   *
   * @throws IllegalStateException when that run could not be written
   */
  void startReading() {
    if (group != null) {
      group.read();
    }
    if (overflow != null) {
      overflow.finish();
    }
  }

  /** A spill of {@code count} tuples failed: they stay in memory. Under the lock. */
  private void spillFailed(boolean self, long count, Exception e) {
    task.count(BagCounter.BAG_SPILL_FAILURES, 1);
    if (self) {
      limit.failed(bag.memoryEstimate());
    }
    LOG.warn("Could not spill {} tuples of a bag of {}; they stay in memory", count, task, e);
    bag.warnPig(
        "Unable to spill " + count + " tuples to SpongeFiles: " + e, PigWarning.UNABLE_TO_SPILL, e);
  }

  private void registerCleaner() {
    if (!cleanerRegistered) {
      RunCleaner.CLEANER.register(bag, runs);
      cleanerRegistered = true;
    }
  }

  /** The bag was cleared: its limit, role and tail start over. Under the lock. */
  void reset() {
    limit.reset();
    if (group != null) {
      group.reset();
    }
    if (overflow != null) {
      overflow.reset();
    }
  }
}
