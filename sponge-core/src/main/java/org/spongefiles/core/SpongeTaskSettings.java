package org.spongefiles.core;

import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.stats.SpongeStats;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;
import org.spongefiles.core.wire.ClusterSecret;

/** The parsed, cross-checked settings of one task, read once at {@link SpongeTask#open}. */
final class SpongeTaskSettings {
  final int configuredChunkSize;
  final int checksumBlockSize;
  final boolean poolChecksum;
  final boolean prefetch;
  final int writeBuffers;
  final boolean writeOverflow;
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

  SpongeTaskSettings(Configuration conf) {
    // Every key of every tier is parsed and checked now, so a bad value fails at start, not at the
    // first spill.
    this.values =
        ConfigCheck.validate(conf, new SpongeOptions(), new ClusterOptions(), new TlsOptions());
    this.configuredChunkSize = values.get(SpongeOptions.CHUNK_SIZE).intValue();
    this.checksumBlockSize = values.get(SpongeOptions.CHECKSUM_BLOCK_SIZE).intValue();
    this.poolChecksum = values.get(SpongeOptions.POOL_CHECKSUM);
    this.prefetch = values.get(SpongeOptions.READ_PREFETCH);
    this.writeBuffers = values.get(SpongeOptions.WRITE_BUFFERS);
    this.writeOverflow = values.get(SpongeOptions.WRITE_OVERFLOW);
    this.ioThreads = values.get(SpongeOptions.IO_THREADS);
    checkBlockDividesChunk(configuredChunkSize, SpongeOptions.CHUNK_SIZE.key());
    this.remote = SpongeSettings.remote(values);
    this.secret = SpongeSettings.clusterSecret(values);
    this.tls = TlsContext.forClient(values);
  }

  /** The chunk size a pool imposes must also be a whole number of checksum blocks. */
  void checkBlockDividesChunk(int chunkSize, String source) {
    if (chunkSize % checksumBlockSize != 0) {
      throw new ConfigException(
          SpongeOptions.CHECKSUM_BLOCK_SIZE.key(),
          ByteSize.format(checksumBlockSize),
          "must divide the chunk size " + ByteSize.format(chunkSize) + " (" + source + ")");
    }
  }
}
