package org.spongefiles.core;

import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.stats.SpongeStats;
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

  SpongeTaskSettings(Configuration conf) {
    this.configuredChunkSize = SpongeOptions.CHUNK_SIZE.get(conf).intValue();
    this.checksumBlockSize = SpongeOptions.CHECKSUM_BLOCK_SIZE.get(conf).intValue();
    this.poolChecksum = SpongeOptions.POOL_CHECKSUM.get(conf);
    this.prefetch = SpongeOptions.READ_PREFETCH.get(conf);
    this.writeBuffers = SpongeOptions.WRITE_BUFFERS.get(conf);
    this.writeOverflow = SpongeOptions.WRITE_OVERFLOW.get(conf);
    this.ioThreads = SpongeOptions.IO_THREADS.get(conf);
    checkBlockDividesChunk(configuredChunkSize, SpongeOptions.CHUNK_SIZE.key());
    // Every key of every tier is checked now, so a bad value fails at start, not at the first
    // spill.
    ConfigCheck.validate(conf, new SpongeOptions(), new ClusterOptions());
    this.remote = SpongeSettings.remote(conf);
    this.secret = SpongeSettings.clusterSecret(conf);
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
