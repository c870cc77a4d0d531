package org.spongefiles.it.cluster;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Every job time of the cluster runs, kept across runs so that one table and one plot per workload
 * show stock and ours under each disk and load (issue 28's results): {@link ClusterBench} appends
 * one row per job to a CSV ({@code run,workload,disk,load,mode,round,millis}; {@code run} is the
 * run's start, so a run repeated under the same disk and load replaces the earlier one in the
 * report), and at the end writes beside it {@code cluster-times.md} (per workload and disk-load:
 * each round's time, the medians and their ratio, as the BENCH lines) and {@code
 * cluster-<workload>.png} (each round's job time, stock and ours, one pair of lines per disk-load).
 */
public final class ClusterTimes {
  static final String HEADER = "run,workload,disk,load,mode,round,millis";
  private static final Color[] COLORS = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)
  };

  private final Path csv;
  private final String run = Instant.now().toString();
  private final String disk;
  private final String load;

  /** Appends this run's jobs, under {@code disk} and {@code load}, to {@code csv}. */
  ClusterTimes(Path csv, String disk, String load) {
    this.csv = csv;
    this.disk = disk;
    this.load = load;
  }

  /** The CSV this run appends to. */
  Path csv() {
    return csv;
  }

  /** One job's time, stock or ours, in round {@code round} (from 1). */
  void record(String workload, String mode, int round, long millis) throws IOException {
    Path parent = csv.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    List<String> lines = new ArrayList<>();
    if (!Files.exists(csv)) {
      lines.add(HEADER);
    }
    lines.add(
        String.join(",", run, workload, disk, load, mode, Integer.toString(round), "" + millis));
    Files.write(
        csv, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /**
   * Writes the table and the plots of every workload in {@code csv}, each disk-load from its latest
   * run, beside {@code csv}; returns the table.
   */
  static String report(Path csv) throws IOException {
    Map<String, Map<String, Rounds>> byWorkload = latest(Files.readAllLines(csv));
    Path dir = csv.toAbsolutePath().getParent();
    StringBuilder table = new StringBuilder();
    for (Map.Entry<String, Map<String, Rounds>> workload : byWorkload.entrySet()) {
      table.append(String.format(Locale.ROOT, "%n### %s%n%n", workload.getKey()));
      table.append(
          "| disk-load | stock, s per round | ours, s per round | median stock / ours | ratio |\n");
      table.append("|---|---|---|---|---|\n");
      XYChart chart =
          new XYChartBuilder()
              .width(800)
              .height(480)
              .title(
                  "cluster-"
                      + workload.getKey()
                      + ": job time per round, stock (dashed) and ours (solid)")
              .xAxisTitle("round (stock and ours alternate)")
              .yAxisTitle("job time, s")
              .build();
      chart.getStyler().setYAxisMin(0.0);
      int colorIndex = 0;
      for (Map.Entry<String, Rounds> condition : workload.getValue().entrySet()) {
        Rounds rounds = condition.getValue();
        table.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %.1f / %.1f | %.3f |%n",
                condition.getKey(),
                seconds(rounds.stock),
                seconds(rounds.ours),
                median(rounds.stock) / 1e3,
                median(rounds.ours) / 1e3,
                median(rounds.ours) / (double) median(rounds.stock)));
        // One colour per disk-load, so that its stock and ours lines read as a pair.
        Color color = COLORS[colorIndex++ % COLORS.length];
        XYSeries stock =
            chart.addSeries(condition.getKey() + " stock", xs(rounds.stock), ys(rounds.stock));
        stock.setLineStyle(SeriesLines.DASH_DASH);
        stock.setMarker(SeriesMarkers.CIRCLE);
        XYSeries ours =
            chart.addSeries(condition.getKey() + " ours", xs(rounds.ours), ys(rounds.ours));
        ours.setMarker(SeriesMarkers.DIAMOND);
        for (XYSeries series : List.of(stock, ours)) {
          series.setLineColor(color);
          series.setMarkerColor(color);
        }
      }
      BitmapEncoder.saveBitmap(
          chart,
          dir.resolve("cluster-" + workload.getKey() + ".png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
    }
    Files.writeString(dir.resolve("cluster-times.md"), table.toString(), StandardCharsets.UTF_8);
    return table.toString();
  }

  /**
   * Redraws the table and the plots of a CSV ClusterBench wrote: {@code ClusterTimes <csv>}, for
   * instance after copying the runs of two machines into one file.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ClusterTimes <cluster-times.csv>");
      System.exit(2);
    }
    System.out.println(report(Path.of(args[0])));
  }

  /** Workload, then disk-load, to the rounds of the latest run under that disk-load. */
  static Map<String, Map<String, Rounds>> latest(List<String> lines) {
    Map<String, String> latestRun = new LinkedHashMap<>();
    List<String[]> rows = new ArrayList<>();
    for (String line : lines) {
      if (line.isBlank() || line.equals(HEADER)) {
        continue;
      }
      String[] row = line.split(",");
      if (row.length != 7) {
        throw new IllegalArgumentException(
            "A job time row needs 7 fields (" + HEADER + "), got " + row.length + ": " + line);
      }
      rows.add(row);
      // ISO-8601 instants of one clock sort as strings.
      latestRun.merge(row[2] + "-" + row[3], row[0], (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }
    Map<String, Map<String, Rounds>> result = new TreeMap<>();
    for (String[] row : rows) {
      String condition = row[2] + "-" + row[3];
      if (!row[0].equals(latestRun.get(condition))) {
        continue;
      }
      Rounds rounds =
          result
              .computeIfAbsent(row[1], workload -> new TreeMap<>(ClusterTimes::quietFirst))
              .computeIfAbsent(condition, c -> new Rounds());
      (row[4].equals(MedianClient.STOCK) ? rounds.stock : rounds.ours).add(Long.parseLong(row[6]));
    }
    return result;
  }

  private static int quietFirst(String a, String b) {
    int byLoad = Boolean.compare(a.endsWith("-contended"), b.endsWith("-contended"));
    return byLoad != 0 ? byLoad : a.compareTo(b);
  }

  /** One disk-load's job times of one workload, in round order. */
  static final class Rounds {
    final List<Long> stock = new ArrayList<>();
    final List<Long> ours = new ArrayList<>();
  }

  static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  private static String seconds(List<Long> millis) {
    return millis.stream()
        .map(value -> String.format(Locale.ROOT, "%.1f", value / 1e3))
        .collect(Collectors.joining(", "));
  }

  private static double[] xs(List<Long> millis) {
    double[] x = new double[millis.size()];
    for (int i = 0; i < x.length; i++) {
      x[i] = i + 1;
    }
    return x;
  }

  private static double[] ys(List<Long> millis) {
    return millis.stream().mapToDouble(value -> value / 1e3).toArray();
  }
}
