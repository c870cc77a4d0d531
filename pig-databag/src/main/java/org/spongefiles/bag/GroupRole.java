package org.spongefiles.bag;

import java.lang.ref.WeakReference;
import org.spongefiles.bag.task.BagTask;

/**
 * The GROUP/COGROUP decision of one bag found to be filled by Pig's packagers ({@link
 * org.spongefiles.bag.filler.PigFillers#GROUP}): a GROUP's bag limits itself and Pig's memory
 * manager leaves it alone, as stock Pig never registers its internal bags with it; a COGROUP's bags
 * limit themselves to 1/n of the share (n learned from the bags made together, {@link Siblings}, on
 * MapReduce's {@code POPackage} and Tez's {@code POShuffleTezLoad} alike, both of which make a
 * key's bags before filling any) and {@link SpongeBag#spill()} still writes them, as it writes
 * every bag that is not left to itself (Pig's memory manager does not call it on these: a bag Pig's
 * packagers fill is not registered with it, see {@code SpongeBag.registerIfLarge}). A bag found to
 * be a group's while the one found before it in the same task is still unread belongs with it to a
 * COGROUP: one bag at a time is a GROUP's, read before the next group's bag fills.
 */
final class GroupRole {
  private volatile boolean unread;
  private volatile boolean cogroup;

  /**
   * {@code bag}, whose role this is, was found to be a GROUP's or COGROUP's bag of {@code task}.
   */
  void found(SpongeBag bag, BagTask task) {
    unread = true;
    task.attachment(LatestGroupBag.class, LatestGroupBag::new).found(bag);
  }

  /** Whether the bag was found to be a GROUP's or COGROUP's and has not been read since. */
  boolean isUnread() {
    return unread;
  }

  /** The bag is read (iterated or serialized). */
  void read() {
    unread = false;
  }

  /** Whether the bag, found to be a group's ({@code group}), is a GROUP's: left to itself. */
  boolean leftToItself(boolean group) {
    return group && !cogroup;
  }

  /** The bag was cleared: its role is found again. */
  void reset() {
    unread = false;
    cogroup = false;
  }

  private void markCogroup() {
    cogroup = true;
  }

  /** One task's latest bag found to be a group's, not kept alive by this. */
  private static final class LatestGroupBag {
    private WeakReference<SpongeBag> latest = new WeakReference<>(null);

    synchronized void found(SpongeBag bag) {
      SpongeBag previous = latest.get();
      if (previous != null && previous != bag && previous.group().isUnread()) {
        previous.group().markCogroup();
        bag.group().markCogroup();
      }
      latest = new WeakReference<>(bag);
    }
  }
}
