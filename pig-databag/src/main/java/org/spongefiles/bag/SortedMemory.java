package org.spongefiles.bag;

import org.spongefiles.bag.run.Run;
import org.spongefiles.bag.run.RunCleaner;

/**
 * One sorting of a sorted or distinct bag's memory, shared by the readers opened on it, and what
 * became of it: still in memory, spilled into a run (its readers go on in that run, from where they
 * were), or changed under them (tuples sorted in, the bag cleared), which they report as a
 * concurrent modification rather than return wrong tuples. A reader finds the run by this object,
 * not by a position in the bag's list, which merges reorder. Guarded by the bag's lock.
 */
final class SortedMemory {
  private int activeReaders;
  private Run spilledInto;
  private boolean changed;

  void readerOpened() {
    activeReaders++;
  }

  /** A reader finished memory, moved on to the run, or was closed. */
  void readerLeft() {
    activeReaders--;
  }

  /**
   * Memory was written into {@code run}. When readers are still in it, they will go on in that run,
   * which must outlive a merge or {@code clear()} of the bag meanwhile: this sorting holds the run
   * until it is garbage, that is until its last reader moved on or was dropped.
   */
  void spilled(Run run) {
    if (activeReaders > 0 && run.retain()) {
      spilledInto = run;
      RunCleaner.CLEANER.register(this, run::release);
    }
  }

  /** Memory was re-sorted, replaced or emptied under the readers. */
  void changed() {
    changed = true;
  }

  /** The run memory was spilled into while readers were in it, or null. */
  Run spilledInto() {
    return spilledInto;
  }

  boolean isChanged() {
    return changed;
  }
}
