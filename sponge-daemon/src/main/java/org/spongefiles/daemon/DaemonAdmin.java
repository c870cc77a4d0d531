package org.spongefiles.daemon;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.tls.TlsContext;

/**
 * The health check of {@code bin/sponge-* status}: {@code host:port [--conf sponge-site.xml]
 * [-Dkey=value ...]}. Connects to the daemon over the wire protocol with the cluster secret of the
 * configuration, asks one question and prints {@code healthy: answer} (exit 0), or {@code
 * unhealthy: host:port: reason} (exit 1); a missing address exits 2.
 */
public final class DaemonAdmin {
  /** The question asked of a connected daemon; returns what follows "healthy: ". */
  public interface Question {
    String ask(RemoteConnection connection, Configuration conf) throws IOException;
  }

  private DaemonAdmin() {}

  /** Asks, prints the answer and exits 1 when the daemon does not answer. */
  public static void run(String[] args, Class<?> mainClass, Question question) {
    if (args.length < 1) {
      System.err.println(
          "usage: "
              + mainClass.getSimpleName()
              + " host:port [--conf sponge-site.xml] [-Dkey=value ...]");
      System.exit(2);
    }
    try {
      Configuration conf = DaemonArguments.parse(Arrays.asList(args).subList(1, args.length));
      ConfigValues values = ConfigValues.reading(conf);
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
              SpongeSettings.clusterSecret(values),
              TlsContext.forClient(values),
              Duration.ofSeconds(5),
              Duration.ofSeconds(10),
              new byte[0])) {
        System.out.println("healthy: " + question.ask(connection, conf));
      }
    } catch (Exception e) {
      System.out.println("unhealthy: " + args[0] + ": " + e.getMessage());
      System.exit(1);
    }
  }
}
