package org.spongefiles.server;

import java.time.Duration;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.config.DaemonArguments;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ServerStats;

/**
 * Asks a running sponge server for its pool statistics over the wire protocol: the health check of
 * {@code bin/sponge-server status}. Exits 0 and prints the statistics when the server answers, 1
 * with the reason when it does not.
 *
 * <pre>
 * java -cp ... org.spongefiles.server.ServerAdmin host:port [--conf sponge-site.xml] [-Dkey=value]
 * </pre>
 */
public final class ServerAdmin {
  private ServerAdmin() {}

  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("usage: ServerAdmin host:port [--conf sponge-site.xml] [-Dkey=value ...]");
      System.exit(2);
    }
    try {
      Configuration conf = DaemonArguments.parse(Arrays.asList(args).subList(1, args.length));
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
        ServerStats stats = connection.stats();
        System.out.println("healthy: " + stats);
      }
    } catch (Exception e) {
      System.out.println("unhealthy: " + args[0] + ": " + e.getMessage());
      System.exit(1);
    }
  }
}
