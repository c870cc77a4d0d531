package org.spongefiles.bag.filler;

import java.util.Optional;

/**
 * Which bags spill themselves past their part of {@code sponge.pig.bag.memory}, and what part: the
 * values of {@code sponge.pig.bag.self.spill}.
 *
 * <p>Stock Pig (without the recipe's {@code pig.cachedbag.*type=default}) limits only the bags its
 * operators make with {@code new}: {@code POPackage}, its {@code Packager}s and {@code
 * POCollectedGroup} make {@code InternalCachedBag(numInputs)} (one input for a GROUP), {@code
 * POSort} {@code InternalSortedBag(3, ...)}, {@code PODistinct} and the builtin {@code Distinct}
 * {@code InternalDistinctBag(3)}. The bags anyone else gets from the {@code BagFactory} (UDFs,
 * {@code POCross}, projections, deserialized bags) are Pig's default, sorted and distinct bags,
 * which only Pig's memory manager spills. With the recipe every bag comes from our factory, which
 * is not told who asks; {@link #PIG} finds out from the stack of the thread filling the bag, once
 * the bag has grown past the smallest limit (a third of the share), so small bags never pay for it.
 * The Pig classes it looks for are listed in {@link PigFillers}, with the method of each that fills
 * the bag.
 */
public enum SelfSpill {
  /** As stock Pig: only bags filled by the Pig classes that would use an internal bag. */
  PIG {
    @Override
    public int sharers(int ofKind) {
      return filler()
          .map(frame -> PigFillers.sharersOf(frame.getClassName()))
          .orElse(PigFillers.NONE);
    }
  },

  /**
   * Every bag, by its kind: a default bag past all of the share, a sorted or distinct bag past a
   * third, whoever fills it (earlier releases did so).
   */
  ALWAYS {
    @Override
    public int sharers(int ofKind) {
      return ofKind;
    }
  };

  /** The packages of this module: the bags, their runs, their task, this rule. */
  private static final String MODULE = "org.spongefiles.bag";

  private static final StackWalker FILLERS = StackWalker.getInstance();

  /**
   * How many bags share the memory a bag may hold before it spills itself ({@code heap x
   * sponge.pig.bag.memory / sharers}), or {@link PigFillers#NONE}; called from the thread filling
   * it. {@code ofKind} is what the bag's kind would share: {@link PigFillers#GROUP} for a default
   * bag, {@link PigFillers#NESTED} for a sorted or distinct one.
   */
  public abstract int sharers(int ofKind);

  /**
   * Who fills a bag, seen from a call in the bag: the calling thread's first frame outside this
   * module's packages, or none when the stack holds only this module's frames.
   */
  public static Optional<StackWalker.StackFrame> filler() {
    return FILLERS.walk(
        frames -> frames.filter(frame -> !ofThisModule(frame.getClassName())).findFirst());
  }

  /** Classes of this module (the bags, their factory, their runs) are not who fills a bag. */
  static boolean ofThisModule(String className) {
    return className.startsWith(MODULE + ".");
  }
}
