package org.spongefiles.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.spongefiles.server.ServerMain;
import org.spongefiles.testkit.ChildProcesses;

/**
 * The SpongeFiles daemons of one emulated rack: in the switch namespace an embedded ZooKeeper and
 * the memory tracker ({@link SwitchServicesMain}), and in every node namespace the node's own
 * sponge server ({@link ServerMain}, the distribution's main class) on a tmpfs pool mounted for
 * that node alone, registered in ZooKeeper under the rack {@code /rack-<r>}. Ready once the tracker
 * saw every server up. Closing stops every process, unmounts the pools and removes the run
 * directory; a {@link Teardown} hook does the same at exit and on Ctrl-C.
 */
public final class RackServices extends HostResource {
  public static final int SERVER_PORT = 7071;
  public static final int SERVER_METRICS_PORT = 7072;
  public static final int TRACKER_PORT = 7073;
  public static final int TRACKER_METRICS_PORT = 7074;
  public static final int ZOOKEEPER_PORT = 2181;
  private static final Pattern UP =
      Pattern.compile("(?m)^sponge_tracker_servers_seen\\{state=\"up\"\\} ([0-9.]+)");
  private static final long READY_MILLIS = 60_000;

  private final RackNetwork network;

  /** The run directory: ZooKeeper's data, the logs, the pools' mount points. */
  public final Path dir;

  private final List<Path> pools = new ArrayList<>();
  private final List<Path> mounted = new ArrayList<>();
  private final List<NodeProcess> servers = new ArrayList<>();
  private NodeProcess switchServices;

  private RackServices(RackNetwork network, Path dir) {
    this.network = network;
    this.dir = dir;
  }

  /**
   * Starts the rack's services and one server per node with a pool of {@code poolBytes}, under a
   * run directory made in {@code parent}.
   */
  public static RackServices start(RackNetwork network, long poolBytes, Path parent)
      throws IOException {
    Path dir =
        Files.createDirectories(
            parent.resolve(Teardown.prefix() + "rack" + network.rack + "-services"));
    RackServices services = new RackServices(network, dir);
    services.open(() -> services.startAll(poolBytes));
    return services;
  }

  private void startAll(long poolBytes) throws IOException {
    Path logConfig = dir.resolve("log4j.properties");
    Files.writeString(
        logConfig,
        "log4j.rootLogger=WARN, console\n"
            + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.console.Target=System.err\n"
            + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.appender.console.layout.ConversionPattern=%d %p %c{1}: %m%n\n");
    List<String> jvm =
        List.of(
            "-Xmx128m",
            "-Dzookeeper.admin.enableServer=false",
            "-Dlog4j.configuration=" + logConfig.toUri());
    String tracker = network.switchAddress() + ":" + TRACKER_PORT;
    switchServices =
        NodeProcess.start(
            "rack " + network.rack + " services",
            network.inSwitch(
                ChildProcesses.java(
                    jvm,
                    SwitchServicesMain.class,
                    List.of(
                        Integer.toString(ZOOKEEPER_PORT),
                        Files.createDirectories(dir.resolve("zookeeper")).toString(),
                        "-Dsponge.node.id=rack" + network.rack + "-switch",
                        "-Dsponge.zookeeper.quorum=127.0.0.1:" + ZOOKEEPER_PORT,
                        "-Dsponge.tracker.bind.host=0.0.0.0",
                        "-Dsponge.tracker.port=" + TRACKER_PORT,
                        "-Dsponge.tracker.address=" + tracker,
                        "-Dsponge.tracker.metrics.port=" + TRACKER_METRICS_PORT,
                        "-Dsponge.auth.none=true",
                        "-Dsponge.tracker.leader.check.interval=250ms"))),
            dir.resolve("switch.log"));
    List<CompletableFuture<NodeProcess>> starting = new ArrayList<>();
    for (int n = 1; n <= network.nodeCount(); n++) {
      Path pool = dir.resolve(Teardown.prefix() + "rack" + network.rack + "-node" + n + "-pool");
      Files.createDirectories(pool);
      pools.add(pool);
      HostCommand.run(
          "mount",
          "-t",
          "tmpfs",
          "-o",
          "size=" + (poolBytes + (16L << 20)),
          "tmpfs",
          pool.toString());
      mounted.add(pool);
      List<String> command =
          network.inNode(
              n,
              ChildProcesses.java(
                  jvm,
                  ServerMain.class,
                  List.of(
                      "-Dsponge.node.id=" + nodeId(n),
                      "-Dsponge.rack=" + rackName(),
                      "-Dsponge.zookeeper.quorum=" + zookeeper(),
                      "-Dsponge.server.bind.host=0.0.0.0",
                      "-Dsponge.server.port=" + SERVER_PORT,
                      "-Dsponge.server.address=" + serverEndpoint(n),
                      "-Dsponge.server.metrics.port=" + SERVER_METRICS_PORT,
                      "-Dsponge.auth.none=true",
                      "-Dsponge.pool.dir=" + pool,
                      "-Dsponge.pool.size=" + poolBytes)));
      String name = "server of " + nodeId(n);
      Path log = dir.resolve(nodeId(n) + ".log");
      starting.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return NodeProcess.start(name, command, log);
                } catch (IOException e) {
                  throw new CompletionException(e);
                }
              }));
    }
    IOException failure = null;
    for (CompletableFuture<NodeProcess> start : starting) {
      try {
        servers.add(start.join());
      } catch (CompletionException e) {
        if (failure == null) {
          failure = new IOException(e.getCause().getMessage(), e.getCause());
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    awaitTrackerSees(network.nodeCount());
  }

  private void awaitTrackerSees(int count) throws IOException {
    long deadline = System.currentTimeMillis() + READY_MILLIS;
    int seen = -1;
    while (System.currentTimeMillis() < deadline) {
      seen = serversUp();
      if (seen == count) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted waiting for the tracker of rack " + network.rack, e);
      }
    }
    throw new IOException(
        "The tracker of rack "
            + network.rack
            + " saw "
            + seen
            + " of "
            + count
            + " servers up within "
            + READY_MILLIS
            + " ms; see "
            + dir);
  }

  /** Servers up in the tracker's last poll round, from its metrics (-1: not answering yet). */
  public int serversUp() throws IOException {
    HostCommand.Outcome metrics =
        HostCommand.attempt(
            network.inSwitch(
                List.of(
                    "curl",
                    "-s",
                    "--max-time",
                    "5",
                    "http://127.0.0.1:" + TRACKER_METRICS_PORT + "/metrics")));
    Matcher up = UP.matcher(metrics.output);
    return metrics.ok() && up.find() ? (int) Double.parseDouble(up.group(1)) : -1;
  }

  public String rackName() {
    return "/rack-" + network.rack;
  }

  public String nodeId(int n) {
    return "rack" + network.rack + "-node" + n;
  }

  /** Node {@code n}'s server as other nodes reach it: its veth address. */
  public String serverEndpoint(int n) {
    return network.address(n) + ":" + SERVER_PORT;
  }

  /** The endpoint node {@code n}'s server printed when it was ready. */
  public String announcedEndpoint(int n) {
    return servers.get(n - 1).ready()[0];
  }

  public String trackerEndpoint() {
    return network.switchAddress() + ":" + TRACKER_PORT;
  }

  public String zookeeper() {
    return network.switchAddress() + ":" + ZOOKEEPER_PORT;
  }

  /** Node {@code n}'s pool directory (a tmpfs of its own). */
  public Path pool(int n) {
    return pools.get(n - 1);
  }

  /** The pids of every daemon this rack runs. */
  public List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    if (switchServices != null) {
      pids.add(switchServices.pid());
    }
    servers.forEach(server -> pids.add(server.pid()));
    return pids;
  }

  /**
   * The task-side configuration of a task on node {@code n} that finds remote memory through the
   * tracker, as {@code key=value} pairs.
   */
  public List<String> taskConf(int n) {
    return List.of(
        "sponge.node.id=" + nodeId(n),
        // The task's lease goes beside its node's pool, where that node's server sees it.
        "sponge.pool.dir=" + pool(n),
        "sponge.rack=" + rackName(),
        "sponge.server.address=" + serverEndpoint(n),
        "sponge.tracker.addresses=" + trackerEndpoint(),
        "sponge.zookeeper.quorum=" + zookeeper());
  }

  @Override
  protected void release() throws IOException {
    List<CompletableFuture<Void>> stopping = new ArrayList<>();
    for (NodeProcess server : servers) {
      stopping.add(CompletableFuture.runAsync(server::close));
    }
    stopping.forEach(CompletableFuture::join);
    if (switchServices != null) {
      switchServices.close();
    }
    IOException failure = null;
    for (Path pool : mounted) {
      HostCommand.Outcome outcome = HostCommand.attempt("umount", pool.toString());
      if (!outcome.ok() && failure == null) {
        failure =
            new IOException(
                String.format(Locale.ROOT, "umount %s: %s", pool, outcome.output.trim()));
      }
    }
    if (failure == null) {
      StaleResources.deleteTree(dir);
    }
    if (failure != null) {
      throw failure;
    }
  }
}
