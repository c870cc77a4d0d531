package org.spongefiles.bag;

import java.util.ArrayList;
import java.util.List;

/**
 * A bag's runs. It is also the cleaning action registered for the bag: when a bag that spilled
 * becomes unreachable without {@code clear()}, the runs are deleted by the cleaner thread, since
 * the action holds the runs but not the bag.
 */
final class SpillRuns implements Runnable {
  private final List<Run> runs = new ArrayList<>();

  synchronized void add(Run run) {
    runs.add(run);
  }

  synchronized int size() {
    return runs.size();
  }

  synchronized Run get(int index) {
    return runs.get(index);
  }

  synchronized List<Run> snapshot() {
    return new ArrayList<>(runs);
  }

  /** Bytes of every run, for the bag's memory estimate and tests. */
  synchronized long bytes() {
    long total = 0;
    for (Run run : runs) {
      total += run.bytes();
    }
    return total;
  }

  /** Removes every run and returns them, for the caller to delete outside the bag's lock. */
  synchronized List<Run> takeAll() {
    List<Run> all = new ArrayList<>(runs);
    runs.clear();
    return all;
  }

  /** Puts {@code merged} in place of the runs it was merged from. */
  synchronized void replace(List<Run> inputs, Run merged) {
    runs.removeAll(inputs);
    runs.add(merged);
  }

  static void deleteAll(List<Run> runs) {
    for (Run run : runs) {
      run.delete();
    }
  }

  /** The cleaning action: deletes whatever runs are left. */
  @Override
  public void run() {
    deleteAll(takeAll());
  }
}
