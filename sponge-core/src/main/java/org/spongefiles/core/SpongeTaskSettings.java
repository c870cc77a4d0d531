package org.spongefiles.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.NodeFinalKeys;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.stats.SpongeStats;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;
import org.spongefiles.core.wire.ClusterSecret;

/** The parsed, cross-checked settings of one task, read once at {@link SpongeTask#open}. */
final class SpongeTaskSettings {
  /** The option sets of every task, whatever else it parses. */
  private static final List<OptionSet> CORE_SETS =
      List.of(new SpongeOptions(), new ClusterOptions(), new TlsOptions());

  final int configuredChunkSize;
  final int checksumBlockSize;
  final boolean poolChecksum;
  final boolean prefetch;
  final int writeBuffers;
  final boolean writeOverflow;
  final long writeOverflowWaitNanos;
  final int ioThreads;
  final SpongeStats stats = new SpongeStats();
  final RemoteSettings remote;

  /** The cluster secret, read once; null when none is configured. */
  final ClusterSecret secret;

  /** TLS for the task's connections; null when {@code sponge.tls.enabled} is false. */
  final TlsContext tls;

  /**
   * Every sponge-core key, parsed once; the identity and the tiers are built from these values,
   * never from the {@link Configuration} again.
   */
  final ParsedConfig values;

  /**
   * Parses and checks every key of every tier, and of {@code moduleSets}, once: a bad value fails
   * at start, not at the first spill. The final {@code sponge.*} keys of the node's site files
   * ({@link NodeFinalKeys#fromEnvironment}) win over {@code conf}'s, as in a MapReduce task's
   * JobConf, so that a Tez task, whose configuration is the DAG's alone, gets them too.
   */
  static ParsedConfig parse(Configuration conf, OptionSet... moduleSets) {
    return parse(NodeFinalKeys.fromEnvironment(), conf, moduleSets);
  }

  /** {@link #parse(Configuration, OptionSet...)} with the node's final keys {@code node}. */
  static ParsedConfig parse(NodeFinalKeys node, Configuration conf, OptionSet... moduleSets) {
    List<OptionSet> sets = new ArrayList<>(CORE_SETS);
    sets.addAll(Arrays.asList(moduleSets));
    return ConfigCheck.validate(node.over(conf), sets.toArray(new OptionSet[0]));
  }

  /**
   * The settings of {@code values}, which {@link #parse} made.
   *
   * @throws IllegalArgumentException when {@code values} lacks sponge-core's keys
   */
  SpongeTaskSettings(ParsedConfig values) {
    for (OptionSet set : CORE_SETS) {
      if (!values.covers(set)) {
        throw new IllegalArgumentException(
            "The values lack the keys of '" + set.title() + "': parse them with SpongeTask.parse");
      }
    }
    this.values = values;
    this.configuredChunkSize = values.get(SpongeOptions.CHUNK_SIZE).intValue();
    this.checksumBlockSize = values.get(SpongeOptions.CHECKSUM_BLOCK_SIZE).intValue();
    this.poolChecksum = values.get(SpongeOptions.POOL_CHECKSUM);
    this.prefetch = values.get(SpongeOptions.READ_PREFETCH);
    this.writeBuffers = values.get(SpongeOptions.WRITE_BUFFERS);
    this.writeOverflow = values.get(SpongeOptions.WRITE_OVERFLOW);
    this.writeOverflowWaitNanos = values.get(SpongeOptions.WRITE_OVERFLOW_WAIT).toNanos();
    this.ioThreads = values.get(SpongeOptions.IO_THREADS);
    this.remote = SpongeSettings.remote(values);
    this.secret = SpongeSettings.clusterSecret(values);
    this.tls = TlsContext.forClient(values);
  }
}
