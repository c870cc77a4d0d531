package org.spongefiles.core;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.RackResolver;
import org.spongefiles.core.cluster.TrackerServerSource;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.LeaseDirectory;
import org.spongefiles.core.pool.PoolSpec;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.ConnectionPool;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.remote.RemoteTier;
import org.spongefiles.core.remote.RemoteUnavailable;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.remote.ServerSource;
import org.spongefiles.core.remote.StaticServerSource;
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
    ConfigValues values = settings.values;
    List<String> labels = values.get(SpongeOptions.TIERS);
    RemoteUnavailable unavailable =
        new RemoteUnavailable(
            task.taskId(),
            withoutRemote(values, labels),
            reason -> settings.stats.remoteUnavailable(reason.name()));
    try {
      for (String label : labels) {
        Tier tier = create(TierKind.fromLabel(label), conf, task, settings, unavailable);
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

  /** Where chunks go without remote memory, for the message that says so. */
  private static String withoutRemote(ConfigValues conf, List<String> labels) {
    List<String> rest = new ArrayList<>();
    boolean dfs = !conf.get(SpongeOptions.DFS_DIR).isEmpty();
    for (String label : labels) {
      TierKind kind = TierKind.fromLabel(label);
      if (kind != TierKind.REMOTE && (kind != TierKind.DFS || dfs)) {
        rest.add(label);
      }
    }
    return rest.isEmpty()
        ? "nowhere (" + SpongeOptions.TIERS.key() + "=" + String.join(",", labels) + ")"
        : "the " + String.join(", then the ", rest) + " tier" + (rest.size() > 1 ? "s" : "");
  }

  private static Tier create(
      TierKind kind,
      Configuration conf,
      TaskIdentity task,
      SpongeTaskSettings settings,
      RemoteUnavailable unavailable)
      throws IOException {
    ConfigValues values = settings.values;
    switch (kind) {
      case POOL:
        return openPool(values, task);
      case REMOTE:
        return openRemote(conf, task, settings, unavailable);
      case DISK:
        return new DiskTier(
            task.taskId(),
            SpongeSettings.diskDirs(values, conf),
            values.get(SpongeOptions.DISK_RESERVE),
            values.get(SpongeOptions.DISK_LIMIT),
            values.get(SpongeOptions.DISK_RECYCLE_BYTES));
      case DFS:
        String dir = values.get(SpongeOptions.DFS_DIR);
        if (dir.isEmpty()) {
          return null;
        }
        return new DfsTier(conf, dir, task.taskId(), values.get(SpongeOptions.DFS_LIMIT));
      default:
        throw new IllegalStateException("unknown tier " + kind);
    }
  }

  private static RemoteTier openRemote(
      Configuration conf,
      TaskIdentity task,
      SpongeTaskSettings taskSettings,
      RemoteUnavailable unavailable) {
    RemoteSettings settings = taskSettings.remote;
    ConfigValues values = taskSettings.values;
    boolean tracked = !values.get(ClusterOptions.TRACKER_ADDRESSES).isEmpty();
    if (!tracked && settings.servers().isEmpty()) {
      unavailable.report(
          RemoteUnavailable.Reason.NO_SERVERS_CONFIGURED,
          ClusterOptions.TRACKER_ADDRESSES.key()
              + " and "
              + SpongeOptions.REMOTE_SERVERS.key()
              + " are empty (leave remote out of "
              + SpongeOptions.TIERS.key()
              + " to use no remote memory)");
      return null;
    }
    if (!task.hasLease()) {
      LOG.warn("No remote memory for {}: it holds no lease its node server could vouch for", task);
      return null;
    }
    ClientIdentity identity =
        ClientIdentity.leased(
            SpongeSettings.nodeServerEndpoint(values, task.node()),
            task.lease(),
            task.pid(),
            ChunkOwner.taskHash(task.taskId()),
            task.taskId());
    ConnectionPool connections =
        new ConnectionPool(
            identity,
            taskSettings.secret,
            taskSettings.tls,
            settings.connectTimeout(),
            settings.ioTimeout(),
            settings.connectionsPerServer());
    ServerSource source =
        tracked
            ? new TrackerServerSource(
                values,
                RackResolver.resolve(values, conf, RackResolver.thisHost()),
                ServerAddress.parse(SpongeSettings.nodeServerEndpoint(values, task.node())),
                connections,
                unavailable)
            : new StaticServerSource(settings.servers());
    return new RemoteTier(source, connections, settings, unavailable);
  }

  private static PoolTier openPool(ConfigValues conf, TaskIdentity task) throws IOException {
    PoolSpec spec = SpongeSettings.poolSpec(conf);
    if (!task.hasLease() && !spec.create()) {
      LOG.warn(
          "No lease beside the sponge pool at {} (sponge.pool.create=false); not using it", spec);
      return null;
    }
    if (!task.hasLease()) {
      String reason = "no lease was taken when the task started";
      try {
        LeaseDirectory.beside(spec.dir()).processLease();
      } catch (IOException e) {
        reason = e.getMessage();
      }
      throw new IOException(
          "Cannot use the sponge pool at "
              + spec
              + " (sponge.pool.dir="
              + spec.dir()
              + "): task "
              + task.taskId()
              + " has no lease in "
              + LeaseDirectory.beside(spec.dir())
              + ": "
              + reason);
    }
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
      if (conf.get(SpongeOptions.POOL_RECLAIM_ON_START)) {
        pool.reclaimOrphans();
      }
      return new PoolTier(pool, task.localOwner());
    } catch (IOException | RuntimeException e) {
      pool.close();
      throw e;
    }
  }
}
