package org.spongefiles.bench.tracker;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bench.transfer.Scrape;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.workloads.BenchReport;

/**
 * The tracker at cluster scale, at 1,000 and 10,000 servers ({@code bench.scales}): simulated
 * servers ({@link SimServers}: 40 per rack, each reporting to the leader through its own {@code
 * LeaderLink}) and ten simulated task sessions per server ({@link TaskSessions}: 100,000 at 10,000
 * servers) against a leader tracker and a follower, each in its own JVM. Measures, per scale: the
 * leader's CPU over wall time, the free lists' age (a rack neighbour's list showing a count its
 * server left t ms before is t ms old; the oldest over the 1 s freshness promise), a task's
 * free-list latency p99 over {@code sponge.tracker.timeout} (500 ms), and the takeover after kill
 * -9 of the leader with the free-list questions tasks would send to the trackers meanwhile.
 *
 * <p>Properties: {@code bench.scales} (1000,10000), {@code bench.seconds} (40, measured), {@code
 * bench.warmup} (60), {@code bench.tasks.per.server} (10), {@code bench.tracker.jvm} (options of
 * the trackers' JVMs, e.g. a profiler agent).
 */
public final class TrackerScaleBench {
  private static final int SECONDS = Integer.getInteger("bench.seconds", 40);
  private static final int WARMUP = Integer.getInteger("bench.warmup", 60);
  private static final int TASKS_PER_SERVER = Integer.getInteger("bench.tasks.per.server", 10);
  private static final double TIMEOUT_MS = 500;
  private static final double PERIOD_MS = 1000;
  private static final String OWN_FRAMES = "sponge_tracker_report_frames_total{kind=\"report\"}";
  private static final String BATCH_FRAMES = "sponge_tracker_report_frames_total{kind=\"batch\"}";

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    for (String scale : System.getProperty("bench.scales", "1000,10000").split(",")) {
      run(Integer.parseInt(scale.trim()));
    }
  }

  private static void run(int servers) throws Exception {
    int tasks = servers * TASKS_PER_SERVER;
    String tag = String.format(Locale.ROOT, "servers=%d tasks=%d", servers, tasks);
    long setup = System.nanoTime();
    try (TestingServer zookeeper = new TestingServer()) {
      Configuration conf = new Configuration(false);
      conf.set("sponge.zookeeper.quorum", zookeeper.getConnectString());
      ZooKeeperSettings settings =
          ZooKeeperSettings.from(ConfigCheck.validate(conf, new ClusterOptions()));
      try (CuratorFramework client = ZooKeeperClients.start(settings);
          TrackerProcess leader = TrackerProcess.start(zookeeper.getConnectString(), "leader")) {
        awaitMetric(leader, "sponge_tracker_leader", 1, Duration.ofSeconds(60));
        try (TrackerProcess follower =
                TrackerProcess.start(zookeeper.getConnectString(), "follower");
            SimServers sim = new SimServers(client, settings.layout(), servers)) {
          awaitMetric(
              leader,
              "sponge_tracker_servers_seen{state=\"up\"}",
              servers,
              Duration.ofSeconds(120));
          awaitLinked(sim, Duration.ofSeconds(60));
          BenchReport.info(
              "%s: %d racks, servers linked to the leader in %.1f s (with ZooKeeper and both"
                  + " trackers starting)",
              tag, (servers + 39) / 40, (System.nanoTime() - setup) / 1e9);
          TaskSessions sessions = new TaskSessions(sim, tasks);
          Thread driver = new Thread(sessions, "task-sessions");
          driver.start();
          try {
            measure(tag, leader, sim, sessions);
            takeover(tag, leader, follower, sim, sessions);
          } finally {
            sessions.stop();
            driver.join();
          }
        }
      }
    }
  }

  private static void measure(
      String tag, TrackerProcess leader, SimServers sim, TaskSessions sessions) throws Exception {
    // The JIT, and the tasks' churn: the first closes come at 10 s, and after about a minute tasks
    // open and close at close to their steady rate (a task lives 10 to 110 s).
    Thread.sleep(WARMUP * 1000L);
    Stale stale = new Stale(sim, sessions);
    Thread prober = new Thread(stale, "staleness-prober");
    double reportsBefore =
        Scrape.value(Scrape.metrics(leader.metricsPort), "sponge_tracker_reports_total");
    double pushesBefore =
        Scrape.value(Scrape.metrics(leader.metricsPort), "sponge_tracker_rack_pushes_total");
    double ownBefore = Scrape.value(Scrape.metrics(leader.metricsPort), OWN_FRAMES);
    double batchesBefore = Scrape.value(Scrape.metrics(leader.metricsPort), BATCH_FRAMES);
    long questionsBefore = sessions.questions.get();
    long fallbacksBefore = sessions.fallbacks.get();
    sessions.record(8_000_000);
    prober.start();
    long cpuStart = leader.cpuNanos();
    Map<String, Long> kindsStart = leader.cpuNanosByKind();
    long wallStart = System.nanoTime();
    Thread.sleep(SECONDS * 1000L);
    double wall = (System.nanoTime() - wallStart) / 1e9;
    double cpu = (leader.cpuNanos() - cpuStart) / 1e9;
    StringBuilder kinds = new StringBuilder();
    for (Map.Entry<String, Long> kind : leader.cpuNanosByKind().entrySet()) {
      double share = (kind.getValue() - kindsStart.getOrDefault(kind.getKey(), 0L)) / 1e9 / wall;
      kinds.append(String.format(Locale.ROOT, " cpu_%s=%.3f", kind.getKey(), share));
    }
    stale.stop();
    prober.join();
    long[] latencies = sessions.recorded();
    String metrics = Scrape.metrics(leader.metricsPort);
    double reports = Scrape.value(metrics, "sponge_tracker_reports_total") - reportsBefore;
    double pushes = Scrape.value(metrics, "sponge_tracker_rack_pushes_total") - pushesBefore;
    double batches = Scrape.value(metrics, BATCH_FRAMES) - batchesBefore;
    double frames = Scrape.value(metrics, OWN_FRAMES) - ownBefore + batches;
    long questions = sessions.questions.get() - questionsBefore;
    long fallbacks = sessions.fallbacks.get() - fallbacksBefore;
    Arrays.sort(latencies);
    double p50 = percentile(latencies, 0.50) / 1e6;
    double p99 = percentile(latencies, 0.99) / 1e6;
    double max = latencies.length == 0 ? Double.NaN : latencies[latencies.length - 1] / 1e6;
    BenchReport.info(
        "%s: leader CPU %.2f s in %.1f s (cores by thread:%s); %.0f reports/s in %.0f frames/s"
            + " (%.0f of them relays' batches), %.0f rack pushes/s (each to two relays); tasks"
            + " asked %.0f/s"
            + " (%d refused by their server); free-list latency p50 %.3f ms, p99 %.3f ms, max %.1f"
            + " ms; staleness %s",
        tag,
        cpu,
        wall,
        kinds,
        reports / wall,
        frames / wall,
        batches / wall,
        pushes / wall,
        questions / wall,
        fallbacks,
        p50,
        p99,
        max,
        stale.summary());
    BenchReport.bench(
        "tracker-cpu",
        cpu / wall,
        String.format(
            Locale.ROOT,
            "%s cpu_s=%.2f wall_s=%.1f reports_per_s=%.0f report_frames_per_s=%.0f"
                + " batches_per_s=%.0f rack_pushes_per_s=%.0f%s",
            tag,
            cpu,
            wall,
            reports / wall,
            frames / wall,
            batches / wall,
            pushes / wall,
            kinds));
    BenchReport.bench(
        "tracker-staleness",
        stale.maxMillis() / PERIOD_MS,
        String.format(
            Locale.ROOT,
            "%s %s (ratio: the oldest a list was, ms / 1000 ms; a list showing a count its server"
                + " left t ms before is t ms old)",
            tag,
            stale.summary()));
    BenchReport.bench(
        "tracker-free-list-p99",
        p99 / TIMEOUT_MS,
        String.format(
            Locale.ROOT,
            "%s p50_ms=%.3f p99_ms=%.3f max_ms=%.1f questions_per_s=%.0f to_trackers=%d"
                + " (ratio: p99 / sponge.tracker.timeout 500 ms)",
            tag,
            p50,
            p99,
            max,
            questions / wall,
            fallbacks));
  }

  /** kill -9 of the leader; seconds until the follower answers a free list. */
  private static void takeover(
      String tag,
      TrackerProcess leader,
      TrackerProcess follower,
      SimServers sim,
      TaskSessions sessions)
      throws Exception {
    long quietStart = sessions.fallbacks.get();
    Thread.sleep(5000);
    long quiet = sessions.fallbacks.get() - quietStart;
    long before = sessions.fallbacks.get();
    leader.kill();
    long killed = System.nanoTime();
    while (!answers(follower)) {
      if (System.nanoTime() - killed > TimeUnit.SECONDS.toNanos(60)) {
        throw new IllegalStateException("no new leader 60 s after kill -9 of the leader");
      }
      Thread.sleep(20);
    }
    double seconds = (System.nanoTime() - killed) / 1e9;
    long during = sessions.fallbacks.get() - before;
    awaitLinked(sim, Duration.ofSeconds(60));
    double relinked = (System.nanoTime() - killed) / 1e9;
    BenchReport.info(
        "%s: kill -9 of the leader; the follower answered after %.2f s, every server had its"
            + " list back after %.2f s; tasks would have asked the trackers %d times meanwhile"
            + " (%d in the 5 s before the kill)",
        tag, seconds, relinked, during, quiet);
    BenchReport.bench(
        "tracker-takeover",
        seconds / 5.0,
        String.format(
            Locale.ROOT,
            "%s seconds=%.2f relinked_s=%.2f tracker_requests_during_gap=%d"
                + " tracker_requests_in_5s_before=%d (ratio: seconds / 5 s)",
            tag,
            seconds,
            relinked,
            during,
            quiet));
  }

  private static boolean answers(TrackerProcess tracker) throws IOException {
    try (RemoteConnection task =
        RemoteConnection.open(
            ServerAddress.parse(tracker.endpoint()),
            new ClientIdentity("", (int) ProcessHandle.current().pid(), 0, 1, "attempt_probe"),
            null,
            Duration.ofSeconds(1),
            Duration.ofSeconds(2))) {
      FreeList list = task.freeList("/rack-0");
      return !list.servers.isEmpty();
    } catch (WireException e) {
      return false;
    }
  }

  private static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  }

  private static void awaitLinked(SimServers sim, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (sim.linked() < sim.count) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            sim.linked() + " of " + sim.count + " servers hold a rack list after " + within);
      }
      Thread.sleep(50);
    }
  }

  private static void awaitMetric(
      TrackerProcess tracker, String metric, double atLeast, Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (Scrape.value(Scrape.metrics(tracker.metricsPort), metric) >= atLeast) {
          return;
        }
      } catch (IOException | RuntimeException e) {
        // not up yet
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(metric + " did not reach " + atLeast + " within " + within);
  }

  /**
   * Probes a hundred servers every 25 ms in a rack neighbour's list: how old the lists are, a list
   * showing a free count its server left t ms ago being t ms old (the free-list age of issue 31).
   */
  private static final class Stale implements Runnable {
    private final SimServers sim;
    private final TaskSessions sessions;
    private final List<Long> samples = new ArrayList<>();
    private final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    private final java.util.Map<Integer, Episode> episodes = new java.util.HashMap<>();
    private final long started = System.nanoTime(); // counts that ended earlier are not timed
    private volatile boolean stopped;

    /** A stale count shown in the lists: when the server left it, and the oldest age seen. */
    private static final class Episode {
      final long ended;
      long age;

      Episode(long ended) {
        this.ended = ended;
      }
    }

    Stale(SimServers sim, TaskSessions sessions) {
      this.sim = sim;
      this.sessions = sessions;
    }

    void stop() {
      stopped = true;
    }

    @Override
    public void run() {
      int step = Math.max(1, sim.count / 100);
      while (!stopped) {
        for (int server = 0; server < sim.count; server += step) {
          probe(server);
        }
        try {
          Thread.sleep(25);
        } catch (InterruptedException e) {
          break;
        }
      }
      episodes.values().forEach(this::close);
      episodes.clear();
    }

    /**
     * One probe of {@code server} in a rack neighbour's list. A list showing a count the server
     * left at time t is {@code now - t} old; each stale count shown is one sample, its oldest age
     * seen while shown (the list since moved on, or the probing ended).
     */
    private void probe(int server) {
      int neighbour = server % SimServers.PER_RACK == 0 ? server + 1 : server - 1;
      int truth = sim.free[server].get();
      int listed;
      try {
        listed = listed(sim.link(neighbour).answer(sim.racks[server], "probe", random), server);
      } catch (WireException e) {
        return;
      }
      long now = System.nanoTime();
      long ended = listed == truth ? 0 : sessions.history.endedAt(server, listed);
      Episode open = episodes.get(server);
      if (open != null && open.ended != ended) {
        episodes.remove(server);
        close(open);
        open = null;
      }
      if (ended != 0 && ended >= started) {
        if (open == null) {
          open = new Episode(ended);
          episodes.put(server, open);
        }
        open.age = now - ended;
      }
    }

    private void close(Episode episode) {
      synchronized (samples) {
        samples.add(episode.age);
      }
    }

    private int listed(FreeList list, int server) {
      for (FreeList.Entry entry : list.servers) {
        if (entry.endpoint.equals(sim.endpoints[server])) {
          return entry.freeChunks;
        }
      }
      return -1;
    }

    double maxMillis() {
      synchronized (samples) {
        return samples.stream().mapToLong(Long::longValue).max().orElse(0) / 1e6;
      }
    }

    String summary() {
      synchronized (samples) {
        long[] sorted = samples.stream().mapToLong(Long::longValue).sorted().toArray();
        return String.format(
            Locale.ROOT,
            "stale_counts=%d mean_ms=%.0f p99_ms=%.0f max_ms=%.0f",
            sorted.length,
            Arrays.stream(sorted).average().orElse(0) / 1e6,
            percentile(sorted, 0.99) / 1e6,
            sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
      }
    }
  }
}
