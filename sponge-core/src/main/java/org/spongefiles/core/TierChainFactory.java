package org.spongefiles.core;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.pool.PoolSpec;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.tier.DfsTier;
import org.spongefiles.core.tier.DiskTier;
import org.spongefiles.core.tier.PoolTier;
import org.spongefiles.core.tier.Tier;
import org.spongefiles.core.tier.TierChain;
import org.spongefiles.core.tier.TierKind;

/** Builds a task's tier chain from {@code sponge.tiers} and the keys of each tier. */
final class TierChainFactory {
  private static final Logger LOG = LoggerFactory.getLogger(TierChainFactory.class);

  private TierChainFactory() {}

  static TierChain build(Configuration conf, TaskIdentity task, SpongeTaskSettings settings)
      throws IOException {
    List<Tier> tiers = new ArrayList<>();
    try {
      for (String label : SpongeOptions.TIERS.get(conf)) {
        Tier tier = create(TierKind.fromLabel(label), conf, task, settings);
        if (tier != null) {
          tiers.add(tier);
        }
      }
    } catch (IOException | RuntimeException e) {
      for (Tier tier : tiers) {
        try {
          tier.close();
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    return new TierChain(tiers, settings.stats);
  }

  private static Tier create(
      TierKind kind, Configuration conf, TaskIdentity task, SpongeTaskSettings settings)
      throws IOException {
    switch (kind) {
      case POOL:
        return openPool(conf, task);
      case REMOTE:
        LOG.debug("No remote sponge servers in this build's tier chain for {}", task);
        return null;
      case DISK:
        return new DiskTier(
            task.taskId(),
            DiskTier.configuredDirs(conf),
            SpongeOptions.DISK_RESERVE.get(conf),
            SpongeOptions.DISK_LIMIT.get(conf),
            SpongeOptions.DISK_RECYCLE_BYTES.get(conf));
      case DFS:
        String dir = SpongeOptions.DFS_DIR.get(conf);
        if (dir.isEmpty()) {
          return null;
        }
        return new DfsTier(conf, dir, task.taskId(), SpongeOptions.DFS_LIMIT.get(conf));
      default:
        throw new IllegalStateException("unknown tier " + kind);
    }
  }

  private static PoolTier openPool(Configuration conf, TaskIdentity task) throws IOException {
    PoolSpec spec = PoolSpec.fromConfiguration(conf);
    SharedPool pool;
    try {
      pool = SharedPool.open(spec);
    } catch (NoSuchFileException e) {
      if (!spec.create()) {
        LOG.warn("No sponge pool at {} yet (sponge.pool.create=false); not using the pool", spec);
        return null;
      }
      throw new IOException(
          "Cannot use the sponge pool at "
              + spec
              + " (sponge.pool.dir="
              + spec.dir()
              + "): "
              + e.getMessage(),
          e);
    } catch (IOException e) {
      throw new IOException(
          "Cannot use the sponge pool at "
              + spec
              + " (sponge.pool.dir="
              + spec.dir()
              + ", sponge.pool.name="
              + spec.name()
              + "): "
              + e.getMessage(),
          e);
    }
    try {
      if (SpongeOptions.POOL_RECLAIM_ON_START.get(conf)) {
        pool.reclaimOrphans();
      }
      return new PoolTier(pool, task.localOwner());
    } catch (IOException | RuntimeException e) {
      pool.close();
      throw e;
    }
  }
}
