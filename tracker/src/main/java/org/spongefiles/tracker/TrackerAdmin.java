package org.spongefiles.tracker;

import java.time.Duration;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetworkTopology;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.config.DaemonArguments;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;

/**
 * Asks a running tracker for a rack's free list: the health check of {@code bin/sponge-tracker
 * status}. A leader prints the list, a follower names its leader; both exit 0. Exits 1 when the
 * tracker does not answer.
 *
 * <p>The rack asked about is {@code sponge.rack} of the configuration given, else /default-rack.
 *
 * <pre>
 * java -cp ... org.spongefiles.tracker.TrackerAdmin host:port [--conf sponge-site.xml] [-Dkey=value]
 * </pre>
 */
public final class TrackerAdmin {
  private TrackerAdmin() {}

  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println(
          "usage: TrackerAdmin host:port [--conf sponge-site.xml] [-Dkey=value ...]");
      System.exit(2);
    }
    try {
      Configuration conf = DaemonArguments.parse(Arrays.asList(args).subList(1, args.length));
      String explicit = ClusterOptions.RACK.get(conf);
      String rack = explicit.isEmpty() ? NetworkTopology.DEFAULT_RACK : explicit;
      ClientIdentity admin =
          new ClientIdentity(
              "",
              ProcessLiveness.currentPid(),
              ProcessLiveness.currentStartMillis(),
              ChunkOwner.taskHash("sponge-admin"),
              "sponge-admin");
      try (RemoteConnection connection =
          RemoteConnection.open(
              ServerAddress.parse(args[0]),
              admin,
              SpongeSettings.clusterSecret(conf),
              Duration.ofSeconds(5),
              Duration.ofSeconds(10))) {
        try {
          FreeList list = connection.freeList(rack);
          System.out.println("healthy: leader; " + list);
        } catch (WireException e) {
          if (e.code() != ErrorCode.NOT_LEADER) {
            throw e;
          }
          System.out.println(
              "healthy: follower; leader " + (e.reason().isEmpty() ? "(electing)" : e.reason()));
        }
      }
    } catch (Exception e) {
      System.out.println("unhealthy: " + args[0] + ": " + e.getMessage());
      System.exit(1);
    }
  }
}
