package org.spongefiles.bag;

/**
 * The default bags one thread made together before it filled any of them: Pig's {@code POPackage}
 * makes a key's bags this way, one per input of its GROUP, COGROUP or JOIN ({@code numInputs}),
 * then fills them, and stock Pig gives each of those bags {@code 1/numInputs} of the bags' memory
 * ({@code new InternalCachedBag(numInputs)}). The factory does not learn the number of inputs, but
 * it sees the bags made together: a bag made while the thread's latest ones are all still untouched
 * (none added to or read) joins them, any other starts a new set. A bag found to be a group's
 * divides its share by its set's size (see {@link SelfSpillLimit}). Only the making thread changes
 * a set, so it needs no lock.
 */
final class Siblings {
  private static final ThreadLocal<Siblings> LATEST = new ThreadLocal<>();

  private int count;
  private boolean touched;

  private Siblings() {}

  /** The set a default bag made now by the calling thread belongs to, counting it in. */
  static Siblings join() {
    Siblings latest = LATEST.get();
    if (latest == null || latest.touched) {
      latest = new Siblings();
      LATEST.set(latest);
    }
    latest.count++;
    return latest;
  }

  /** A set of its own, for a bag made full (from a list, or deserialized). */
  static Siblings alone() {
    Siblings own = new Siblings();
    own.count = 1;
    own.touched = true;
    return own;
  }

  /** One of the set's bags was added to or read: bags made from now on start a new set. */
  void touch() {
    touched = true;
  }

  /** How many bags were made together: a packager's number of inputs. */
  int count() {
    return count;
  }
}
