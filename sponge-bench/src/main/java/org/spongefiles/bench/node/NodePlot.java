package org.spongefiles.bench.node;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The node sweep's plots, the paper's Figures 4 to 6 analogs: per disk class (and, for the Pig
 * queries, per query), the median time of stock and ours side by side for every load and memory
 * condition, with min-max bars.
 */
final class NodePlot {
  private NodePlot() {}

  /** Writes {@code median-<disk>.png} in {@code dir} for the cells of {@code disk}. */
  static Path draw(String disk, List<NodeCell> cells, Path dir) throws IOException {
    return draw(
        "Median job, reduce phase on " + disk + " (median of runs; bars as wide as min-max)",
        "reduce phase (s)",
        new String[] {"stock Hadoop", "SpongeFiles"},
        cells,
        dir.resolve("median-" + disk + ".png"));
  }

  /**
   * Writes {@code file}: per cell (load / memory on the x axis) the median of its stock and ours
   * runs side by side, named {@code series} (stock first), with min-max bars. Cells whose every run
   * failed are left out.
   */
  static Path draw(String title, String yAxis, String[] series, List<NodeCell> allCells, Path file)
      throws IOException {
    List<NodeCell> cells = measured(allCells);
    CategoryChart chart = chart(800, title, "load / memory", yAxis);
    List<String> conditions = new ArrayList<>();
    double[][] values = new double[2][cells.size()];
    double[][] errors = new double[2][cells.size()];
    for (int i = 0; i < cells.size(); i++) {
      NodeCell cell = cells.get(i);
      conditions.add(cell.load + " / " + cell.memory);
      fill(values[0], errors[0], i, cell.stock);
      fill(values[1], errors[1], i, cell.ours);
    }
    chart.addSeries(series[0], conditions, toList(values[0]), toList(errors[0]));
    chart.addSeries(series[1], conditions, toList(values[1]), toList(errors[1]));
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  /**
   * Writes {@code file}: for every job and memory condition in {@code byJob}, stock (1) and ours'
   * median time relative to stock's, side by side, with ours' min-max bars: the layout of the
   * paper's Figures 4 and 5, normalized so jobs of different lengths share one axis.
   */
  static Path figure(String title, Map<String, List<NodeCell>> byJob, Path file)
      throws IOException {
    CategoryChart chart = chart(900, title, "job / memory", "time / stock's");
    chart.getStyler().setXAxisLabelRotation(20);
    List<String> conditions = new ArrayList<>();
    List<Double> stock = new ArrayList<>();
    List<Double> stockErrors = new ArrayList<>();
    List<Double> ours = new ArrayList<>();
    List<Double> oursErrors = new ArrayList<>();
    for (Map.Entry<String, List<NodeCell>> job : byJob.entrySet()) {
      for (NodeCell cell : measured(job.getValue())) {
        conditions.add(job.getKey() + " / " + cell.memory);
        stock.add(1.0);
        stockErrors.add(0.0);
        ours.add(NodeCell.median(cell.ratios));
        oursErrors.add((NodeCell.max(cell.ratios) - NodeCell.min(cell.ratios)) / 2);
      }
    }
    chart.addSeries("stock", conditions, stock, stockErrors);
    chart.addSeries("SpongeFiles", conditions, ours, oursErrors);
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  /** A headless bar chart whose error bars take their series' colour. */
  private static CategoryChart chart(int width, String title, String xAxis, String yAxis) {
    System.setProperty("java.awt.headless", "true");
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(width)
            .height(480)
            .title(title)
            .xAxisTitle(xAxis)
            .yAxisTitle(yAxis)
            .build();
    chart.getStyler().setErrorBarsColorSeriesColor(true);
    return chart;
  }

  // XChart's error bars are symmetric: half the min-max spread around the median.
  private static void fill(double[] values, double[] errors, int i, List<Double> runs) {
    values[i] = NodeCell.median(runs);
    errors[i] = (NodeCell.max(runs) - NodeCell.min(runs)) / 2;
  }

  private static List<Double> toList(double[] values) {
    List<Double> list = new ArrayList<>();
    for (double value : values) {
      list.add(value);
    }
    return list;
  }

  private static List<NodeCell> measured(List<NodeCell> cells) {
    List<NodeCell> measured = new ArrayList<>();
    for (NodeCell cell : cells) {
      if (cell.measured()) {
        measured.add(cell);
      }
    }
    return measured;
  }
}
