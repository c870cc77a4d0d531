package org.spongefiles.bench.transfer;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ServerRegistry;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperLayout;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.tracker.TrackerMain;
import org.spongefiles.workloads.BenchReport;

/**
 * The tracker at scale: 1,000 registered servers (simulated stat responders, 40 per rack) polled by
 * a leader tracker in its own JVM at a 1 s period. Reports the poll round duration against the
 * period, how stale the free lists tasks get are, and the leader's CPU (its process's CPU time over
 * wall time). Targets: round at most 1 s, CPU under 5% of one core.
 *
 * <p>Properties: {@code bench.servers} (1000), {@code bench.seconds} (30), {@code bench.warmup}
 * (20), {@code bench.tracker.jvm} (extra options of the tracker's JVM, e.g. to profile it).
 */
public final class TrackerBench {
  private final int servers = Integer.getInteger("bench.servers", 1000);
  private final int seconds = Integer.getInteger("bench.seconds", 30);
  private final int warmup = Integer.getInteger("bench.warmup", 20);
  private final List<Closeable> registrations = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    new TrackerBench().run();
  }

  private void run() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        StatResponders responders = new StatResponders(servers)) {
      Configuration conf = new Configuration(false);
      conf.set("sponge.zookeeper.quorum", zookeeper.getConnectString());
      ZooKeeperSettings settings =
          ZooKeeperSettings.from(ConfigCheck.validate(conf, new ClusterOptions()));
      CuratorFramework client = ZooKeeperClients.start(settings);
      ZooKeeperLayout layout = settings.layout();
      List<Integer> ports = responders.ports();
      for (int i = 0; i < ports.size(); i++) {
        ServerRegistration registration =
            new ServerRegistration(
                new ServerAddress("127.0.0.1", ports.get(i)),
                "/rack-" + (i / 40),
                StatResponders.CHUNKS,
                StatResponders.CHUNK_SIZE);
        registrations.add(ServerRegistry.register(client, layout, registration));
      }
      int trackerPort = freePort();
      int metricsPort = freePort();
      Process tracker = startTracker(zookeeper.getConnectString(), trackerPort, metricsPort);
      try {
        String endpoint = "127.0.0.1:" + trackerPort;
        waitForView(metricsPort, Duration.ofSeconds(120));
        BenchReport.info(
            "%d servers registered in %d racks; leader polling every 1 s; %d s warm-up",
            servers, (servers + 39) / 40, warmup);
        Thread.sleep(warmup * 1000L); // the leader's JIT compiles its poll loop first
        measure(tracker, endpoint, metricsPort);
      } finally {
        tracker.destroy();
        tracker.waitFor();
        for (Closeable registration : registrations) {
          registration.close();
        }
        client.close();
      }
    }
  }

  private void measure(Process tracker, String endpoint, int metricsPort) throws Exception {
    List<Double> rounds = new ArrayList<>();
    List<Long> ages = new ArrayList<>();
    long cpuStart = cpuNanos(tracker);
    long wallStart = System.nanoTime();
    try (RemoteConnection task =
        RemoteConnection.open(
            ServerAddress.parse(endpoint),
            new ClientIdentity(
                "", (int) ProcessHandle.current().pid(), 0, 1, "attempt_trackerbench"),
            null,
            Duration.ofSeconds(5),
            Duration.ofSeconds(5))) {
      for (int s = 0; s < seconds; s++) {
        for (int q = 0; q < 10; q++) {
          FreeList list = task.freeList("/rack-" + (q % 25));
          ages.add(list.ageMillis);
          Thread.sleep(100);
        }
        if (s % 5 == 4) { // scraping has a cost of its own; Prometheus scrapes every 15 s or so
          rounds.add(
              Scrape.value(Scrape.metrics(metricsPort), "sponge_tracker_poll_round_seconds"));
        }
      }
    }
    double wall = (System.nanoTime() - wallStart) / 1e9;
    double cpu = (cpuNanos(tracker) - cpuStart) / 1e9;
    double meanRound =
        rounds.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    double maxRound = rounds.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    double meanAge = ages.stream().mapToLong(Long::longValue).average().orElse(Double.NaN);
    long maxAge = ages.stream().mapToLong(Long::longValue).max().orElse(0);
    BenchReport.info(
        "poll round: mean %.1f ms, max %.1f ms; free-list age: mean %.0f ms, max %d ms; leader CPU %.2f s in %.1f s",
        meanRound * 1000, maxRound * 1000, meanAge, maxAge, cpu, wall);
    BenchReport.bench(
        "tracker-round",
        maxRound / 1.0,
        String.format(
            Locale.ROOT,
            "mean_round_ms=%.1f max_round_ms=%.1f period_ms=1000 servers=%d",
            meanRound * 1000,
            maxRound * 1000,
            servers));
    BenchReport.bench(
        "tracker-cpu",
        cpu / wall,
        String.format(Locale.ROOT, "cpu_s=%.2f wall_s=%.1f servers=%d", cpu, wall, servers));
    BenchReport.bench(
        "tracker-staleness",
        maxAge / 1000.0,
        String.format(
            Locale.ROOT,
            "mean_age_ms=%.0f max_age_ms=%d (ratio: max age / poll period)",
            meanAge,
            maxAge));
  }

  private static long cpuNanos(Process process) {
    return process
        .info()
        .totalCpuDuration()
        .map(Duration::toNanos)
        .orElseThrow(() -> new IllegalStateException("no CPU time for the tracker"));
  }

  private static void waitForView(int metricsPort, Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        String metrics = Scrape.metrics(metricsPort);
        if (metrics.contains("sponge_tracker_leader 1")) {
          double up = Scrape.value(metrics, "sponge_tracker_servers_seen{state=\"up\"}");
          if (up >= Integer.getInteger("bench.servers", 1000)) {
            return;
          }
        }
      } catch (IOException e) {
        // not up yet
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("the tracker did not see every server within " + within);
  }

  private static Process startTracker(String quorum, int port, int metricsPort) throws IOException {
    // Log like the distribution's conf/log4j.properties: without a configuration log4j 1.x runs at
    // DEBUG, and ZooKeeper's client then formats every response it receives.
    Path logConfig = Files.createTempFile("trackerbench-log4j", ".properties");
    logConfig.toFile().deleteOnExit();
    Files.writeString(
        logConfig,
        "log4j.rootLogger=INFO, console\n"
            + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.logger.io.netty=WARN\n"
            + "log4j.logger.org.apache.zookeeper=WARN\n");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-Xmx512m",
            "-Dzookeeper.admin.enableServer=false",
            "-Dlog4j.configuration=" + logConfig.toUri(),
            "-cp",
            System.getProperty("java.class.path")));
    String extra = System.getProperty("bench.tracker.jvm", "").trim();
    if (!extra.isEmpty()) {
      command.addAll(List.of(extra.split("\\s+")));
    }
    command.add(TrackerMain.class.getName());
    command.addAll(
        List.of(
            "-Dsponge.zookeeper.quorum=" + quorum,
            "-Dsponge.tracker.bind.host=127.0.0.1",
            "-Dsponge.tracker.port=" + port,
            "-Dsponge.tracker.address=127.0.0.1:" + port,
            "-Dsponge.tracker.metrics.port=" + metricsPort,
            "-Dsponge.auth.none=true",
            "-Dsponge.tracker.poll.interval=1s"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    Thread drain =
        new Thread(
            () -> {
              try {
                while (out.readLine() != null) {
                  // keep the pipe empty
                }
              } catch (IOException e) {
                // tracker ended
              }
            });
    drain.setDaemon(true);
    drain.start();
    return process;
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
