package org.spongefiles.core;

import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.stats.SpongeStats;

/** The parsed, cross-checked settings of one task, read once at {@link SpongeTask#open}. */
final class SpongeTaskSettings {
  final int configuredChunkSize;
  final int checksumBlockSize;
  final boolean poolChecksum;
  final boolean prefetch;
  final int writeBuffers;
  final int ioThreads;
  final SpongeStats stats = new SpongeStats();

  SpongeTaskSettings(Configuration conf) {
    this.configuredChunkSize = SpongeOptions.CHUNK_SIZE.get(conf).intValue();
    this.checksumBlockSize = SpongeOptions.CHECKSUM_BLOCK_SIZE.get(conf).intValue();
    this.poolChecksum = SpongeOptions.POOL_CHECKSUM.get(conf);
    this.prefetch = SpongeOptions.READ_PREFETCH.get(conf);
    this.writeBuffers = SpongeOptions.WRITE_BUFFERS.get(conf);
    this.ioThreads = SpongeOptions.IO_THREADS.get(conf);
    checkBlockDividesChunk(configuredChunkSize, SpongeOptions.CHUNK_SIZE.key());
    // Validate the keys of every tier now, so a bad value fails at start, not at the first spill.
    SpongeOptions.TIERS.get(conf);
    SpongeOptions.POOL_DIR.get(conf);
    SpongeOptions.POOL_NAME.get(conf);
    SpongeOptions.POOL_SIZE.get(conf);
    SpongeOptions.POOL_SEGMENT_SIZE.get(conf);
    SpongeOptions.POOL_CREATE.get(conf);
    SpongeOptions.POOL_PERMISSIONS.get(conf);
    SpongeOptions.POOL_LOCK_TIMEOUT.get(conf);
    SpongeOptions.POOL_RECLAIM_ON_START.get(conf);
    SpongeOptions.DISK_DIRS.get(conf);
    SpongeOptions.DISK_RESERVE.get(conf);
    SpongeOptions.DISK_LIMIT.get(conf);
    SpongeOptions.DISK_RECYCLE_BYTES.get(conf);
    SpongeOptions.DFS_DIR.get(conf);
    SpongeOptions.DFS_LIMIT.get(conf);
    SpongeOptions.NODE_ID.get(conf);
    for (org.spongefiles.core.config.ConfigOption<?> option :
        new org.spongefiles.core.cluster.ClusterOptions().options()) {
      option.get(conf);
    }
    new org.spongefiles.core.remote.RemoteSettings(conf);
    org.spongefiles.core.wire.ClusterSecret.fromConfiguration(conf);
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
