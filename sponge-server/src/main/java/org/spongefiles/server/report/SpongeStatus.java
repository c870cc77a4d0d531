package org.spongefiles.server.report;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;
import org.spongefiles.daemon.DaemonArguments;
import org.spongefiles.daemon.MalformedSiteFileException;

/**
 * {@code bin/sponge status} (or {@code report}): the rack's memory tracker leader, every registered
 * sponge server with its rack, pool, used, free and reserved bytes and live connections, and the
 * tasks holding the most memory; {@code --json} for scripts. Exit codes for monitoring checks: 0
 * all well, 1 no tracker leads, 2 a registered server does not answer, 3 anything else (ZooKeeper
 * unreachable, bad configuration), 64 bad usage.
 *
 * <pre>
 * java -cp ... org.spongefiles.server.report.SpongeStatus status|report [--json]
 *     [--conf sponge-site.xml] [-Dkey=value ...]
 * </pre>
 */
public final class SpongeStatus {
  static final String USAGE =
      "usage: sponge status|report [--json] [--conf sponge-site.xml] [-Dkey=value ...]";

  private SpongeStatus() {}

  public static void main(String[] args) {
    System.exit(run(Arrays.asList(args), System.out, System.err));
  }

  /** Runs the command and returns its exit code. */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || !(args.get(0).equals("status") || args.get(0).equals("report"))) {
      err.println(USAGE);
      return RackStatus.USAGE;
    }
    boolean json = false;
    List<String> confArgs = new ArrayList<>();
    for (String arg : args.subList(1, args.size())) {
      if (arg.equals("--json")) {
        json = true;
      } else {
        confArgs.add(arg);
      }
    }
    Configuration conf;
    try {
      conf = DaemonArguments.parse(confArgs);
    } catch (IllegalArgumentException e) {
      err.println("sponge: " + e.getMessage());
      err.println(USAGE);
      return RackStatus.USAGE;
    } catch (MalformedSiteFileException e) {
      err.println("sponge: " + e.getMessage());
      return RackStatus.OTHER_FAILURE;
    }
    try {
      return report(conf, json, out, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("sponge: interrupted");
      return RackStatus.OTHER_FAILURE;
    } catch (Exception e) {
      err.println("sponge: " + e.getMessage());
      return RackStatus.OTHER_FAILURE;
    }
  }

  /** Reads the rack's state from the servers ZooKeeper lists, prints it and returns the code. */
  private static int report(Configuration conf, boolean json, PrintStream out, PrintStream err)
      throws Exception {
    ParsedConfig parsed = ConfigCheck.validate(conf, new ClusterOptions(), new TlsOptions());
    ZooKeeperSettings settings = ZooKeeperSettings.from(parsed);
    try (CuratorFramework zookeeper = ZooKeeperClients.start(settings)) {
      Duration timeout = settings.connectTimeout();
      if (!zookeeper.blockUntilConnected(
          (int) timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        err.println(
            "sponge: cannot reach ZooKeeper "
                + zookeeper.getZookeeperClient().getCurrentConnectionString()
                + " (sponge.zookeeper.quorum) within "
                + timeout.toMillis()
                + " ms (sponge.zookeeper.connect.timeout)");
        return RackStatus.OTHER_FAILURE;
      }
      RackStatus status =
          new StatusCollector(
                  zookeeper,
                  settings.layout(),
                  SpongeSettings.clusterSecret(ConfigValues.reading(conf)),
                  TlsContext.forClient(parsed),
                  timeout)
              .collect();
      out.print(json ? StatusFormat.json(status) : StatusFormat.text(status));
      out.flush();
      return status.exitCode();
    }
  }
}
