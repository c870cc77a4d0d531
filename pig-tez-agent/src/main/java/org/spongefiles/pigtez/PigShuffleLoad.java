package org.spongefiles.pigtez;

import java.util.List;

/**
 * The one Pig class the agent changes and the builds of it the change was written for: Pig 0.18.0's
 * {@code POShuffleTezLoad}, whose {@code getNextTuple} builds each key's bags as {@code new
 * InternalCachedBag(numInputs)}. A build is known by the SHA-256 of the class file's bytes, so any
 * other build (another release, a patched or recompiled Pig) is refused, not patched.
 */
final class PigShuffleLoad {
  /** The class, as a class file transformer sees its name. */
  static final String INTERNAL_NAME =
      "org/apache/pig/backend/hadoop/executionengine/tez/plan/operator/POShuffleTezLoad";

  /** The method that builds the bags. */
  static final String BUILDING_METHOD = "getNextTuple";

  /** The method Pig calls when a task starts, before any tuple: where a refused build fails. */
  static final String STARTING_METHOD = "attachInputs";

  /** The bag class it builds with {@code new}, and that constructor's descriptor. */
  static final String BAG = "org/apache/pig/data/InternalCachedBag";

  static final String BAG_CONSTRUCTOR = "(I)V";

  /** What the change was written for, as users name it. */
  static final String PIG = "Pig 0.18.0 (the Maven jar org.apache.pig:pig:0.18.0, Hadoop 3 build)";

  /** SHA-256 of the class file in each build the change was written for and tested on. */
  static final List<String> KNOWN_SHA256 =
      List.of("d0dedd330a1d68a4b4f141806f17752830aa3144298b82d0e94c1783d4180bbd");

  private PigShuffleLoad() {}
}
