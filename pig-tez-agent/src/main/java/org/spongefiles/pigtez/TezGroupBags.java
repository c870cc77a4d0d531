package org.spongefiles.pigtez;

import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.InternalCachedBag;

/**
 * What the patched {@code POShuffleTezLoad} calls instead of {@code new
 * InternalCachedBag(numInputs)}, and what a refused one calls when its task starts. Called by Pig's
 * code only: the agent's patch names these methods.
 */
public final class TezGroupBags {
  /** The key MapReduce's {@code POPackage} and {@code Packager} read for a group's bag. */
  static final String BAG_TYPE = "pig.cachedbag.type";

  private TezGroupBags() {}

  /**
   * A bag of one input of a key's group, chosen as Pig's {@code POPackage} chooses on MapReduce:
   * from the {@link BagFactory} when the task's configuration sets {@code pig.cachedbag.type} to
   * {@code default}, else Pig's own {@code InternalCachedBag(numInputs)}, which is what stock Pig
   * on Tez builds.
   */
  public static DataBag newGroupBag(int numInputs) {
    Configuration conf = PigMapReduce.sJobConfInternal.get();
    String type = conf == null ? null : conf.get(BAG_TYPE);
    return "default".equalsIgnoreCase(type)
        ? BagFactory.getInstance().newDefaultBag()
        : new InternalCachedBag(numInputs);
  }

  /** Fails the task starting with a {@code POShuffleTezLoad} the agent does not know. */
  public static void refuse(String why) {
    throw new IllegalStateException(why);
  }
}
