package org.spongefiles.merger;

import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.MRConfig;

/**
 * Turns the SpongeFiles merger on for a job (or, in mapred-site.xml, for a cluster): it is Hadoop's
 * reduce-side shuffle plugin key set to {@link SpongeShuffle}.
 *
 * <pre>{@code
 * JobConf job = new JobConf(conf);
 * SpongeMergerSetup.enable(job);           // sponge.* keys say where spills may go
 * }</pre>
 */
public final class SpongeMergerSetup {
  /** Hadoop's key naming the reduce-side shuffle plugin. */
  public static final String PLUGIN_KEY = MRConfig.SHUFFLE_CONSUMER_PLUGIN;

  private SpongeMergerSetup() {}

  /**
   * Makes reduce tasks of jobs built from {@code conf} merge their map outputs over SpongeFiles.
   */
  public static void enable(Configuration conf) {
    Objects.requireNonNull(conf, "conf cannot be null");
    conf.setClass(PLUGIN_KEY, SpongeShuffle.class, ShuffleConsumerPlugin.class);
  }

  /**
   * As {@link #enable}, and a task that cannot use SpongeFiles at its start runs Hadoop's own
   * merger with a warning instead of failing ({@code sponge.merger.fallback=true}).
   */
  public static void enableWithFallback(Configuration conf) {
    enable(conf);
    MergerOptions.FALLBACK.set(conf, true);
  }

  /** Whether {@code conf} routes reduce-side merges through {@link SpongeShuffle}. */
  public static boolean isEnabled(Configuration conf) {
    Objects.requireNonNull(conf, "conf cannot be null");
    return SpongeShuffle.class.getName().equals(conf.getTrimmed(PLUGIN_KEY));
  }
}
