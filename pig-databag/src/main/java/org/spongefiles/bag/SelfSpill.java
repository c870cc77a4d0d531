package org.spongefiles.bag;

import java.util.Map;

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
 * The classes below were read in Pig 0.18.0's code: each reads its {@code pig.cachedbag.*type} key
 * and fills the bag it then gets (an {@code add} or {@code addAll} in the class's own method).
 */
public enum SelfSpill {
  /** As stock Pig: only bags filled by the Pig classes that would use an internal bag. */
  PIG {
    @Override
    int sharers(SpongeBag bag) {
      return FILLERS.walk(
          frames ->
              frames
                  .map(StackWalker.StackFrame::getClassName)
                  .filter(name -> !inThisPackage(name))
                  .findFirst()
                  .map(SelfSpill::sharersOfFiller)
                  .orElse(NONE));
    }
  },

  /**
   * Every bag, by its kind: a default bag past all of the share, a sorted or distinct bag past a
   * third, whoever fills it (earlier releases did so).
   */
  ALWAYS {
    @Override
    int sharers(SpongeBag bag) {
      return bag.sharers();
    }
  };

  /** A GROUP's bag has all of the share ({@code InternalCachedBag(1)}). */
  static final int GROUP = 1;

  /** A nested ORDER's or DISTINCT's bag has a third ({@code InternalSortedBag(3, ...)}). */
  static final int NESTED = 3;

  /** The bag does not spill itself: it waits for Pig's memory manager. */
  static final int NONE = 0;

  private static final String OPERATORS =
      "org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.";

  /** The classes whose bags are Pig's internal bags in stock Pig, and how many share the memory. */
  private static final Map<String, Integer> INTERNAL_BAG_SHARERS =
      Map.of(
          OPERATORS + "POPackage",
          GROUP,
          OPERATORS + "Packager",
          GROUP,
          OPERATORS + "JoinPackager",
          GROUP,
          OPERATORS + "POCollectedGroup",
          GROUP,
          OPERATORS + "POSort",
          NESTED,
          OPERATORS + "PODistinct",
          NESTED,
          "org.apache.pig.builtin.Distinct",
          NESTED);

  private static final String PACKAGE = SelfSpill.class.getPackageName();

  private static final StackWalker FILLERS = StackWalker.getInstance();

  /**
   * How many bags share the memory {@code bag} may hold before it spills itself ({@code heap x
   * sponge.pig.bag.memory / sharers}), or {@link #NONE}; called from the thread filling it.
   */
  abstract int sharers(SpongeBag bag);

  /** What stock Pig's bag filled by {@code className} shares its memory with; NONE if unlimited. */
  static int sharersOfFiller(String className) {
    return INTERNAL_BAG_SHARERS.getOrDefault(className, NONE);
  }

  /** Classes of this package (the bags, their factory) are not who fills a bag. */
  private static boolean inThisPackage(String className) {
    return className.startsWith(PACKAGE) && className.lastIndexOf('.') == PACKAGE.length();
  }
}
