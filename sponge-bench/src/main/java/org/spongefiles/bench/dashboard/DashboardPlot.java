package org.spongefiles.bench.dashboard;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;
import org.apache.commons.io.FileUtils;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.server.ServerOptions;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.server.report.MetricsScrape;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.tracker.MemoryTracker;
import org.spongefiles.tracker.TrackerOptions;

/**
 * The Grafana dashboard's main panels (conf/sponge-grafana-dashboard.json), drawn from real scrapes
 * of a demo rack: ZooKeeper, a memory tracker and two sponge servers (16 MiB pools, 256 KiB chunks,
 * 2 MiB quota per task) in this JVM, and remote "tasks" (threads with their own identity) that
 * allocate chunks on the servers, write them, read them back, hold them and free them, in phases of
 * growing load, the fourth asking past the quota. Every 500 ms the servers' and the tracker's
 * /metrics are scraped; the PNG has four panels: free memory per server, chunk WRITE and READ
 * requests per second, quota refusals per second, the leader's tick time. Argument: the PNG's path.
 */
public final class DashboardPlot {
  private static final long CHUNK = 256 << 10;
  private static final int WRITE = 64 << 10;
  private static final long PHASE_MILLIS = 6_000;
  private static final long SCRAPE_MILLIS = 500;

  /** Tasks and chunks per task and round, one entry per phase. */
  private static final int[][] PHASES = {{0, 0}, {2, 4}, {4, 8}, {4, 11}, {1, 2}, {0, 0}};

  private DashboardPlot() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: DashboardPlot <png>");
    }
    Path png = Path.of(args[0]);
    Path pools = Files.createTempDirectory("sponge-dashboard-");
    try (TestingServer zookeeper = new TestingServer()) {
      List<SpongeServer> servers = new ArrayList<>();
      MemoryTracker tracker = null;
      try {
        for (int i = 1; i <= 2; i++) {
          servers.add(SpongeServer.start(serverConf(zookeeper, "node-" + i, pools)));
        }
        tracker = MemoryTracker.start(trackerConf(zookeeper));
        List<Scrapes> scrapes = run(servers, tracker);
        draw(scrapes, png);
      } finally {
        if (tracker != null) {
          tracker.close();
        }
        for (SpongeServer server : servers) {
          server.close();
        }
      }
    } finally {
      FileUtils.deleteDirectory(pools.toFile());
    }
    System.out.println("DASHBOARD png=" + png);
  }

  /** One scrape of every daemon at {@code seconds} since the start. */
  private static final class Scrapes {
    final double seconds;
    final List<MetricsScrape> servers;
    final MetricsScrape tracker;

    Scrapes(double seconds, List<MetricsScrape> servers, MetricsScrape tracker) {
      this.seconds = seconds;
      this.servers = servers;
      this.tracker = tracker;
    }

    double sum(int server, String name, String label, String value) {
      double total = 0;
      for (MetricsScrape.Sample sample : servers.get(server).samples(name)) {
        if (value.equals(sample.labels.get(label))) {
          total += sample.value;
        }
      }
      return total;
    }
  }

  private static List<Scrapes> run(List<SpongeServer> servers, MemoryTracker tracker)
      throws Exception {
    List<Scrapes> scrapes = new ArrayList<>();
    AtomicReference<Exception> failure = new AtomicReference<>();
    long start = System.nanoTime();
    List<Thread> tasks = new ArrayList<>();
    AtomicBoolean running = new AtomicBoolean();
    int phase = -1;
    long end = start + PHASES.length * PHASE_MILLIS * 1_000_000;
    int taskId = 0;
    while (System.nanoTime() < end) {
      int now = (int) ((System.nanoTime() - start) / 1_000_000 / PHASE_MILLIS);
      if (now != phase && now < PHASES.length) {
        phase = now;
        running.set(false);
        for (Thread task : tasks) {
          task.join();
        }
        tasks.clear();
        running = new AtomicBoolean(true);
        for (int t = 0; t < PHASES[phase][0]; t++) {
          SpongeServer server = servers.get(t % servers.size());
          Thread task =
              task(server.endpoint(), "attempt_demo_" + taskId++, PHASES[phase][1], running);
          task.setUncaughtExceptionHandler((thread, e) -> failure.set(new IOException(e)));
          tasks.add(task);
          task.start();
        }
      }
      List<MetricsScrape> serverScrapes = new ArrayList<>();
      for (SpongeServer server : servers) {
        serverScrapes.add(scrape(server.metricsPort()));
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      scrapes.add(new Scrapes(seconds, serverScrapes, scrape(tracker.metricsPort())));
      Thread.sleep(SCRAPE_MILLIS);
    }
    running.set(false);
    for (Thread task : tasks) {
      task.join();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return scrapes;
  }

  /**
   * A remote task: in rounds while {@code running}, allocates {@code chunks} chunks one at a time
   * (stopping at a quota refusal), writes and reads each whole, holds them a moment, frees them.
   */
  private static Thread task(String endpoint, String attempt, int chunks, AtomicBoolean running) {
    return new Thread(
        () -> {
          ClientIdentity self =
              new ClientIdentity(
                  "127.0.0.1:1",
                  ProcessLiveness.currentPid(),
                  ProcessLiveness.currentStartMillis(),
                  ChunkOwner.taskHash(attempt),
                  attempt);
          ByteBuffer data = ByteBuffer.allocate(WRITE);
          try (RemoteConnection connection =
              RemoteConnection.open(
                  ServerAddress.parse(endpoint),
                  self,
                  null,
                  Duration.ofSeconds(5),
                  Duration.ofSeconds(5))) {
            while (running.get()) {
              List<ChunkHandle> held = new ArrayList<>();
              try {
                for (int c = 0; c < chunks; c++) {
                  held.addAll(connection.allocate(1));
                }
              } catch (WireException e) {
                if (e.code() != ErrorCode.QUOTA_EXCEEDED) {
                  throw e;
                }
              }
              for (ChunkHandle chunk : held) {
                for (int offset = 0; offset < CHUNK; offset += WRITE) {
                  data.clear();
                  connection.write(chunk, offset, data);
                }
                for (int offset = 0; offset < CHUNK; offset += WRITE) {
                  data.clear();
                  connection.read(chunk, offset, data);
                }
              }
              hold();
              connection.free(held);
            }
          } catch (IOException e) {
            throw new IllegalStateException(attempt + " on " + endpoint + " failed", e);
          }
        },
        attempt);
  }

  private static void hold() {
    try {
      Thread.sleep(400);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void draw(List<Scrapes> scrapes, Path png) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int servers = scrapes.get(0).servers.size();
    XYChart free = chart("Free memory per server", "MiB");
    XYChart requests = chart("Chunk writes and reads per second", "requests/s");
    XYChart refusals = chart("Quota refusals per second", "refusals/s");
    XYChart poll = chart("Tracker tick time", "ms");
    for (int s = 0; s < servers; s++) {
      String node = "node-" + (s + 1);
      List<Double> x = new ArrayList<>();
      List<Double> freeMib = new ArrayList<>();
      for (Scrapes scrape : scrapes) {
        MetricsScrape m = scrape.servers.get(s);
        x.add(scrape.seconds);
        freeMib.add(
            m.value("sponge_server_pool_free_chunks")
                * m.value("sponge_server_pool_chunk_bytes")
                / (1 << 20));
      }
      line(free, node, x, freeMib);
      line(requests, node + " WRITE", rates(scrapes, s, "requests", "op", "WRITE"));
      line(requests, node + " READ", rates(scrapes, s, "requests", "op", "READ"));
      line(refusals, node, rates(scrapes, s, "errors", "code", "QUOTA_EXCEEDED"));
    }
    List<Double> x = new ArrayList<>();
    List<Double> round = new ArrayList<>();
    for (Scrapes scrape : scrapes) {
      // No sample while no tracker leads.
      for (MetricsScrape.Sample sample : scrape.tracker.samples("sponge_tracker_tick_seconds")) {
        x.add(scrape.seconds);
        round.add(sample.value * 1000);
      }
    }
    line(poll, "leader", x, round);

    XYChart[] panels = {free, requests, refusals, poll};
    BufferedImage image = new BufferedImage(1200, 800, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    for (int i = 0; i < panels.length; i++) {
      g.drawImage(BitmapEncoder.getBufferedImage(panels[i]), (i % 2) * 600, (i / 2) * 400, null);
    }
    g.dispose();
    Files.createDirectories(png.toAbsolutePath().getParent());
    ImageIO.write(image, "png", png.toFile());
  }

  private static XYChart chart(String title, String unit) {
    XYChart chart =
        new XYChartBuilder()
            .width(600)
            .height(400)
            .title(title)
            .xAxisTitle("seconds")
            .yAxisTitle(unit)
            .build();
    chart.getStyler().setYAxisMin(0.0);
    return chart;
  }

  private static void line(XYChart chart, String name, List<Double> x, List<Double> y) {
    chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
  }

  private static void line(XYChart chart, String name, List<List<Double>> xy) {
    line(chart, name, xy.get(0), xy.get(1));
  }

  /** Per second between consecutive scrapes of {@code sponge_server_<what>_total{label=value}}. */
  private static List<List<Double>> rates(
      List<Scrapes> scrapes, int server, String what, String label, String value) {
    String name = "sponge_server_" + what + "_total";
    List<Double> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (int i = 1; i < scrapes.size(); i++) {
      Scrapes before = scrapes.get(i - 1);
      Scrapes after = scrapes.get(i);
      x.add(after.seconds);
      y.add(
          (after.sum(server, name, label, value) - before.sum(server, name, label, value))
              / (after.seconds - before.seconds));
    }
    return List.of(x, y);
  }

  private static MetricsScrape scrape(int port) throws IOException {
    return MetricsScrape.fetch("127.0.0.1", port, Duration.ofSeconds(5));
  }

  private static Configuration serverConf(TestingServer zookeeper, String node, Path pools)
      throws IOException {
    Configuration conf =
        SpongeTestConf.loopbackServer(
            inZooKeeper(zookeeper), node, Files.createDirectories(pools.resolve(node)), 16L << 20);
    ClusterOptions.RACK.set(conf, "/rack-1");
    ServerOptions.METRICS_PORT.set(conf, 0);
    SpongeOptions.CHUNK_SIZE.set(conf, CHUNK);
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    ServerOptions.QUOTA_PER_TASK.set(conf, 2L << 20);
    return conf;
  }

  private static Configuration trackerConf(TestingServer zookeeper) {
    Configuration conf = SpongeTestConf.loopbackTracker(inZooKeeper(zookeeper), "tracker", "250ms");
    TrackerOptions.METRICS_PORT.set(conf, 0);
    return conf;
  }

  private static Configuration inZooKeeper(TestingServer zookeeper) {
    Configuration conf = new Configuration(false);
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, zookeeper.getConnectString());
    return conf;
  }
}
