package org.spongefiles.workloads.median;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.spongefiles.merger.SpongeShuffle;

/**
 * The two shuffles a median run compares, each marking the start of the reduce phase for {@link
 * MedianProbe}, giving the reduce task the local directory {@value #REDUCE_LOCAL_DIR} when set, and
 * otherwise exactly Hadoop's and ours.
 */
public final class MedianShuffles {
  /**
   * The reduce task's own local directory, where Hadoop's merger spills: on a cluster the map
   * outputs a reducer fetches come from other nodes, so only its spills use its node's disk. In
   * LocalJobRunner every task shares {@code mapreduce.cluster.local.dir}; this key moves the reduce
   * task's to {@code <dir>/<attempt id>}, as Hadoop lays out a task's directory (Hadoop's merger
   * resolves its files through the task's JobConf), while the map outputs it fetches stay where the
   * maps wrote them.
   */
  public static final String REDUCE_LOCAL_DIR = "median.reduce.local.dir";

  private MedianShuffles() {}

  /** Marks the shuffle's start and gives the reduce its own local directory, if one is set. */
  @SuppressWarnings("rawtypes")
  private static void started(ShuffleConsumerPlugin.Context context) {
    MedianProbe.shuffleStarted();
    JobConf conf = context.getJobConf();
    String dir = conf.get(REDUCE_LOCAL_DIR);
    if (dir != null && !dir.isEmpty()) {
      conf.set(MRConfig.LOCAL_DIR, dir + "/" + context.getReduceId());
    }
  }

  /** Hadoop's shuffle and merger. */
  public static final class Stock<K, V> extends Shuffle<K, V> {
    @Override
    @SuppressWarnings("rawtypes")
    public void init(ShuffleConsumerPlugin.Context context) {
      started(context);
      super.init(context);
    }
  }

  /** Hadoop's shuffle with the SpongeFiles merger. */
  public static final class Sponge<K, V> extends SpongeShuffle<K, V> {
    @Override
    @SuppressWarnings("rawtypes")
    public void init(ShuffleConsumerPlugin.Context context) {
      started(context);
      super.init(context);
    }
  }
}
