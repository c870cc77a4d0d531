package org.spongefiles.bag.run;

import java.lang.ref.Cleaner;

/**
 * The one cleaner thread of the bags: it deletes the runs of bags that became unreachable without
 * {@code clear()} and closes the readers of iterators Pig dropped half-way.
 */
public final class RunCleaner {
  /** Runs the actions registered with it once their object is garbage. */
  public static final Cleaner CLEANER = Cleaner.create();

  private RunCleaner() {}
}
