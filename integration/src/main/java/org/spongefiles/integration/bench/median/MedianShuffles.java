package org.spongefiles.integration.bench.median;

import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.spongefiles.merger.SpongeShuffle;

/**
 * The two shuffles a median run compares, each marking the start of the reduce phase for {@link
 * MedianProbe} and otherwise exactly Hadoop's and ours.
 */
public final class MedianShuffles {
  private MedianShuffles() {}

  /** Hadoop's shuffle and merger. */
  public static final class Stock<K, V> extends Shuffle<K, V> {
    @Override
    @SuppressWarnings("rawtypes")
    public void init(ShuffleConsumerPlugin.Context context) {
      MedianProbe.shuffleStarted();
      super.init(context);
    }
  }

  /** Hadoop's shuffle with the SpongeFiles merger. */
  public static final class Sponge<K, V> extends SpongeShuffle<K, V> {
    @Override
    @SuppressWarnings("rawtypes")
    public void init(ShuffleConsumerPlugin.Context context) {
      MedianProbe.shuffleStarted();
      super.init(context);
    }
  }
}
