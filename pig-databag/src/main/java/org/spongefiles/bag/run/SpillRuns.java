package org.spongefiles.bag.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A bag's runs, oldest first, then, for a default bag that passed its limit before it was read, the
 * run it appends the tuples past its limit to: open while the bag fills ({@link #appending()}), its
 * tail once the bag is read ({@link #tail()}), read after the bag's memory, which holds the tuples
 * that came before it (see {@code SpongeBag}). The list holds each run (see {@link Run#retain()})
 * until the run leaves it. It is also the cleaning action registered for the bag: when a bag that
 * spilled becomes unreachable without {@code clear()}, the list lets go of its runs from the
 * cleaner thread, since the action holds the runs but not the bag. Most bags never spill: the list
 * is made at the first run.
 */
public final class SpillRuns implements Runnable {
  private List<Run> runs = List.of();
  private RunWriter appending;
  private Run tail;

  public synchronized void add(Run run) {
    listed().add(run);
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
    if (runs.isEmpty()) {
      return List.of();
    }
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

  /** Where {@code run} is in the list: -1 when it is not listed (the tail, or gone). */
  public synchronized int indexOf(Run run) {
    return runs.indexOf(run);
  }

  /** Bytes of every run, the tail's too, for tests and statistics. */
  public synchronized long bytes() {
    long total = tail == null ? 0 : tail.bytes();
    for (Run run : runs) {
      total += run.bytes();
    }
    return total;
  }

  /** The run read after the bag's memory, or null (see the class comment). */
  public synchronized Run tail() {
    return tail;
  }

  /**
   * The tail, held for the caller (who releases it) as by {@link #retainOldest(int)}, or null when
   * there is none.
   */
  public synchronized Run retainTail() {
    if (tail == null) {
      return null;
    }
    tail.retain();
    return tail;
  }

  /**
   * Lists the tail after the other runs: the bag's memory was just written into the last of them
   * (or was empty), so the order of its tuples is kept. Nothing happens without a tail.
   */
  public synchronized void listTail() {
    if (tail != null) {
      listed().add(tail);
      tail = null;
    }
  }

  /** The run being appended to after the listed ones, or null. */
  public synchronized RunWriter appending() {
    return appending;
  }

  /** Starts appending to {@code writer}'s run, to be read after the listed ones and memory. */
  public synchronized void startAppending(RunWriter writer) {
    if (appending != null) {
      throw new IllegalStateException("A run is being appended to already");
    }
    appending = writer;
  }

  /**
   * Finishes the run being appended to, if any, as the tail, readable from now on. When it cannot
   * be finished it is deleted and the tuples appended to it are lost with it.
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
      tail = writer.finish();
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

  /**
   * Removes every run, the tail too, and returns them, for the caller to release outside the bag's
   * lock.
   */
  public synchronized List<Run> takeAll() {
    if (runs.isEmpty() && tail == null) {
      return List.of();
    }
    List<Run> all = new ArrayList<>(runs);
    runs = List.of();
    if (tail != null) {
      all.add(tail);
      tail = null;
    }
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
      if (listed().remove(input)) {
        removed.add(input);
      }
    }
    listed().add(merged);
    return removed;
  }

  /** The list, made mutable at the first run; under the lock. */
  private List<Run> listed() {
    if (!(runs instanceof ArrayList)) {
      runs = new ArrayList<>();
    }
    return runs;
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
