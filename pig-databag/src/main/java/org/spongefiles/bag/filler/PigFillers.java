package org.spongefiles.bag.filler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Everything the bags rely on of Pig's internals to decide which bags spill themselves: the Pig
 * 0.18.0 classes that, in stock Pig, fill one of Pig's self-limiting internal bags, the method of
 * each that adds the tuples, and how many bags share the memory there. Each of these classes reads
 * its {@code pig.cachedbag.*type} key and fills the bag it then gets ({@code add} or {@code addAll}
 * in the method named). The list was read in Pig 0.18.0's bytecode; {@code PigFillersTest} loads
 * each class and finds each method by reflection, so a Pig release that renames or moves one fails
 * that test, naming it, instead of silently changing which bags spill.
 *
 * <p>Only the class name is matched on the filling thread's stack (the method names are what the
 * test checks still exists): the first frame outside this module's packages is the filler.
 */
public final class PigFillers {
  /** A GROUP's bag has all of the share ({@code InternalCachedBag(1)}). */
  public static final int GROUP = 1;

  /**
   * A JOIN's bag has half of it: {@code JoinPackager} gives each bag {@code
   * InternalCachedBag(numInputs)}, and a JOIN has at least two inputs.
   */
  public static final int JOIN = 2;

  /** A nested ORDER's or DISTINCT's bag has a third ({@code InternalSortedBag(3, ...)}). */
  public static final int NESTED = 3;

  /** The bag does not spill itself: it waits for Pig's memory manager. */
  public static final int NONE = 0;

  private static final String OPERATORS =
      "org.apache.pig.backend.hadoop.executionengine.physicalLayer.relationalOperators.";

  private static final String TEZ_OPERATORS =
      "org.apache.pig.backend.hadoop.executionengine.tez.plan.operator.";

  /** One Pig class that fills an internal bag in stock Pig, where, and with how many sharers. */
  public static final class Filler {
    private final String className;
    private final String method;
    private final int sharers;

    Filler(String className, String method, int sharers) {
      this.className = className;
      this.method = method;
      this.sharers = sharers;
    }

    /** The class, as it appears on a stack ({@link Class#getName()}). */
    public String className() {
      return className;
    }

    /** The method of that class whose {@code add}/{@code addAll} fills the bag. */
    public String method() {
      return method;
    }

    /**
     * How many bags share {@code sponge.pig.bag.memory}: {@link #GROUP}, {@link #JOIN} or {@link
     * #NESTED}.
     */
    public int sharers() {
      return sharers;
    }

    @Override
    public String toString() {
      return className + "." + method;
    }
  }

  /**
   * Stock Pig's {@code new InternalCachedBag}, {@code InternalSortedBag}, {@code
   * InternalDistinctBag}. On Tez a key's GROUP, COGROUP and join bags are filled by {@code
   * POShuffleTezLoad.getNextTuple}, which reads {@code pig.cachedbag.type} only with
   * sponge-pig-tez-agent (module pig-tez-agent).
   */
  private static final List<Filler> ALL =
      List.of(
          new Filler(OPERATORS + "POPackage", "getNextTuple", GROUP),
          new Filler(OPERATORS + "Packager", "attachInput", GROUP),
          new Filler(OPERATORS + "JoinPackager", "attachInput", JOIN),
          new Filler(OPERATORS + "POCollectedGroup", "getNextTuple", GROUP),
          new Filler(TEZ_OPERATORS + "POShuffleTezLoad", "getNextTuple", GROUP),
          new Filler(OPERATORS + "POSort", "getNextTuple", NESTED),
          new Filler(OPERATORS + "PODistinct", "getNextTuple", NESTED),
          new Filler("org.apache.pig.builtin.Distinct", "getDistinct", NESTED));

  private static final Map<String, Filler> BY_CLASS =
      ALL.stream().collect(Collectors.toUnmodifiableMap(Filler::className, Function.identity()));

  private PigFillers() {}

  /** Every Pig class and method the rule relies on. */
  public static List<Filler> all() {
    return ALL;
  }

  /** The filler named {@code className}, if it is one. */
  public static Optional<Filler> named(String className) {
    return Optional.ofNullable(BY_CLASS.get(className));
  }

  /** Whether bags filled with {@code sharers} are a GROUP's, COGROUP's or JOIN's. */
  public static boolean isGroup(int sharers) {
    return sharers == GROUP || sharers == JOIN;
  }

  /** What stock Pig's bag filled by {@code className} shares its memory with; NONE if unlimited. */
  public static int sharersOf(String className) {
    Filler filler = BY_CLASS.get(className);
    return filler == null ? NONE : filler.sharers();
  }
}
