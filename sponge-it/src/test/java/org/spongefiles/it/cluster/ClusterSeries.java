package org.spongefiles.it.cluster;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.spongefiles.emulator.cluster.ClusterNode;
import org.spongefiles.emulator.cluster.HadoopCluster;

/**
 * The rack's dashboard series over a whole cluster run: every second, each worker's sponge server
 * metrics (what the Grafana dashboard draws: pool and free chunks, chunks of local and of remote
 * owners, bytes written for remote clients, quota refusals); at each phase (one job), {@code
 * bin/sponge status --json} as an operator runs it on a worker. Writes into {@code dir}:
 *
 * <ul>
 *   <li>{@code cluster-series.csv}: {@code seconds,phase,host,rack,pool_chunks,free_chunks,
 *       local_chunks,remote_chunks,written_bytes,quota_refusals}, one row per server and second;
 *   <li>{@code cluster-status.jsonl}: {@code {"seconds":...,"phase":"...","status":<bin/sponge
 *       status --json>}} per phase;
 *   <li>{@code cluster-series.png}, at close: each server's used chunks (pool minus free) over the
 *       run, a line where each phase began.
 * </ul>
 */
final class ClusterSeries implements Closeable {
  private static final long PERIOD_MILLIS = 1_000;
  private static final String HEADER =
      "seconds,phase,host,rack,pool_chunks,free_chunks,local_chunks,remote_chunks,written_bytes,"
          + "quota_refusals";

  private final HadoopCluster cluster;
  private final Path dir;
  private final BufferedWriter csv;
  private final BufferedWriter status;
  private final long started = System.nanoTime();
  private final Map<String, List<double[]>> used = new LinkedHashMap<>();
  private final List<Phase> phases = new ArrayList<>();
  private final Thread thread;
  private volatile String phase = "start";
  private volatile boolean running = true;
  private volatile IOException failure;

  /** Starts recording {@code cluster} into {@code dir} (made if missing). */
  ClusterSeries(HadoopCluster cluster, Path dir) throws IOException {
    this.cluster = cluster;
    this.dir = Files.createDirectories(dir);
    this.csv = Files.newBufferedWriter(dir.resolve("cluster-series.csv"), StandardCharsets.UTF_8);
    this.status =
        Files.newBufferedWriter(dir.resolve("cluster-status.jsonl"), StandardCharsets.UTF_8);
    csv.write(HEADER);
    csv.newLine();
    for (ClusterNode worker : cluster.workers()) {
      used.put(worker.host, new ArrayList<>());
    }
    thread = new Thread(this::poll, "cluster-series");
    thread.setDaemon(true);
    thread.start();
  }

  /** From now on the rows are {@code name}'s; records the rack's status as the phase begins. */
  void phase(String name) throws IOException {
    phase = name;
    synchronized (phases) {
      phases.add(new Phase(seconds(), name));
    }
    snapshot(name);
  }

  private void snapshot(String name) throws IOException {
    String json = cluster.spongeStatus(cluster.workers().get(0)).trim();
    synchronized (status) {
      status.write(
          String.format(
              Locale.ROOT,
              "{\"seconds\":%.1f,\"phase\":\"%s\",\"status\":%s}",
              seconds(),
              name,
              json));
      status.newLine();
      status.flush();
    }
  }

  private double seconds() {
    return (System.nanoTime() - started) / 1e9;
  }

  private void poll() {
    try {
      while (running) {
        long next = System.currentTimeMillis() + PERIOD_MILLIS;
        sample();
        long wait = next - System.currentTimeMillis();
        if (wait > 0) {
          Thread.sleep(wait);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      failure = e;
    }
  }

  private void sample() throws IOException {
    double at = seconds();
    String label = phase;
    for (ClusterNode worker : cluster.workers()) {
      Map<String, Double> metrics =
          Faults.metrics(cluster, worker, HadoopCluster.SERVER_METRICS_PORT);
      if (metrics.isEmpty()) {
        continue;
      }
      double pool = metrics.getOrDefault("sponge_server_pool_chunks", 0.0);
      double free = metrics.getOrDefault("sponge_server_pool_free_chunks", 0.0);
      csv.write(
          String.format(
              Locale.ROOT,
              "%.1f,%s,%s,%s,%d,%d,%d,%d,%d,%d",
              at,
              label,
              worker.host,
              worker.rackName(),
              (long) pool,
              (long) free,
              metrics.getOrDefault("sponge_server_owned_chunks{owner=\"local\"}", 0.0).longValue(),
              metrics.getOrDefault("sponge_server_owned_chunks{owner=\"remote\"}", 0.0).longValue(),
              metrics.getOrDefault("sponge_server_written_bytes_total", 0.0).longValue(),
              metrics
                  .getOrDefault("sponge_server_errors_total{code=\"QUOTA_EXCEEDED\"}", 0.0)
                  .longValue()));
      csv.newLine();
      used.get(worker.host).add(new double[] {at, pool - free});
    }
    csv.flush();
  }

  /** Stops sampling, records the rack's last status and draws the plot. */
  @Override
  public void close() throws IOException {
    // Not interrupted: a scrape interrupted mid-fetch fails as an IOException, and the run with it.
    // The loop sees the flag within one period.
    running = false;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (csv;
        status) {
      if (failure != null) {
        throw failure;
      }
      snapshot("end");
      plot();
    }
  }

  private void plot() throws IOException {
    List<Phase> marked;
    synchronized (phases) {
      marked = List.copyOf(phases);
    }
    XYChart chart =
        new XYChartBuilder()
            .width(1200)
            .height(560)
            .title("Used pool chunks per sponge server over the run (a line where each job began)")
            .xAxisTitle("seconds since the cluster was up")
            .yAxisTitle("used chunks (pool - free)")
            .build();
    double top = 1;
    for (Map.Entry<String, List<double[]>> server : used.entrySet()) {
      List<double[]> points = server.getValue();
      if (points.isEmpty()) {
        continue;
      }
      double[] x = points.stream().mapToDouble(point -> point[0]).toArray();
      double[] y = points.stream().mapToDouble(point -> point[1]).toArray();
      chart.addSeries(server.getKey(), x, y).setMarker(SeriesMarkers.NONE);
      for (double value : y) {
        top = Math.max(top, value);
      }
    }
    for (int i = 0; i < marked.size(); i++) {
      Phase phase = marked.get(i);
      chart.addAnnotation(new AnnotationLine(phase.seconds, true, false));
      // Alternating heights, so that the names of short jobs do not overlap.
      chart.addAnnotation(
          new AnnotationText(phase.name, phase.seconds, top * (i % 2 == 0 ? 1.02 : 0.94), false));
    }
    BitmapEncoder.saveBitmap(
        chart, dir.resolve("cluster-series.png").toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** A job's start: seconds since the recording began, and its name. */
  private static final class Phase {
    final double seconds;
    final String name;

    Phase(double seconds, String name) {
      this.seconds = seconds;
      this.name = name;
    }
  }
}
