package org.spongefiles.bag.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A bag's runs, oldest first, and the run it may be appending to after them (see {@code
 * SpongeBag}); the list holds each run (see {@link Run#retain()}) until the run leaves it. It is
 * also the cleaning action registered for the bag: when a bag that spilled becomes unreachable
 * without {@code clear()}, the list lets go of its runs from the cleaner thread, since the action
 * holds the runs but not the bag.
 */
public final class SpillRuns implements Runnable {
  private final List<Run> runs = new ArrayList<>();
  private RunWriter appending;

  public synchronized void add(Run run) {
    runs.add(run);
  }

  public synchronized int size() {
    return runs.size();
  }

  public synchronized Run get(int index) {
    return runs.get(index);
  }

  /**
   * The oldest {@code count} runs (all when there are fewer), each with a hold of the caller's, so
   * a merge or {@code clear()} cannot delete them before the caller opened them. The caller
   * releases them.
   */
  public synchronized List<Run> retainOldest(int count) {
    List<Run> held = new ArrayList<>(runs.subList(0, Math.min(count, runs.size())));
    for (Run run : held) {
      run.retain();
    }
    return held;
  }

  /** Every run, held for the caller as by {@link #retainOldest(int)}. */
  public List<Run> retainAll() {
    return retainOldest(Integer.MAX_VALUE);
  }

  /** Bytes of every run, for tests and statistics. */
  public synchronized long bytes() {
    long total = 0;
    for (Run run : runs) {
      total += run.bytes();
    }
    return total;
  }

  /** The run being appended to after the listed ones, or null. */
  public synchronized RunWriter appending() {
    return appending;
  }

  /** Starts appending to {@code writer}'s run after the listed ones. */
  public synchronized void startAppending(RunWriter writer) {
    if (appending != null) {
      throw new IllegalStateException("A run is being appended to already");
    }
    appending = writer;
  }

  /**
   * Lists the run being appended to, if any, after the others: it is finished and readable. When it
   * cannot be finished it is deleted and the tuples appended to it are lost with it.
   *
   * @throws IOException when the run could not be finished
   */
  public synchronized void finishAppending() throws IOException {
    RunWriter writer = appending;
    if (writer == null) {
      return;
    }
    appending = null;
    try {
      runs.add(writer.finish());
    } catch (IOException | RuntimeException e) {
      writer.abandon(e);
      throw e;
    }
  }

  /** Deletes the run being appended to, if any, unread. */
  public synchronized void abandonAppending() {
    if (appending != null) {
      appending.abandon(null);
      appending = null;
    }
  }

  /** Removes every run and returns them, for the caller to release outside the bag's lock. */
  public synchronized List<Run> takeAll() {
    List<Run> all = new ArrayList<>(runs);
    runs.clear();
    return all;
  }

  /**
   * Puts {@code merged} after the other runs, in place of the runs it was merged from (Pig's bags
   * put theirs at the end too). Returns those of {@code inputs} that were still listed, for the
   * caller to release.
   */
  public synchronized List<Run> replace(List<Run> inputs, Run merged) {
    List<Run> removed = new ArrayList<>(inputs.size());
    for (Run input : inputs) {
      if (runs.remove(input)) {
        removed.add(input);
      }
    }
    runs.add(merged);
    return removed;
  }

  public static void releaseAll(List<Run> runs) {
    for (Run run : runs) {
      run.release();
    }
  }

  /** The cleaning action: lets go of whatever runs are left. */
  @Override
  public void run() {
    abandonAppending();
    releaseAll(takeAll());
  }
}
