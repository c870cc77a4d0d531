package org.spongefiles.bench.node;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** One cell of the node sweep (disk class, load, memory) and its runs' reduce-phase seconds. */
final class NodeCell {
  final String disk;
  final String load;
  final String memory;
  final List<Double> stock = new ArrayList<>();
  final List<Double> ours = new ArrayList<>();
  final List<Double> ratios = new ArrayList<>();
  final List<String> failures = new ArrayList<>();
  long stockDiskBytes;
  long spilledBytes;
  long reduceInputBytes;

  NodeCell(String disk, String load, String memory) {
    this.disk = disk;
    this.load = load;
    this.memory = memory;
  }

  String name() {
    return disk + "-" + load + "-" + memory;
  }

  void add(double stockSeconds, double oursSeconds) {
    stock.add(stockSeconds);
    ours.add(oursSeconds);
    ratios.add(oursSeconds / stockSeconds);
  }

  /** Run {@code run} gave no times: a child failed (killed at its container's limit, say). */
  void failed(int run, String why) {
    failures.add("run " + run + ": " + why);
  }

  /** Whether at least one run gave both times. */
  boolean measured() {
    return !ratios.isEmpty();
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static double min(List<Double> values) {
    return Collections.min(values);
  }

  static double max(List<Double> values) {
    return Collections.max(values);
  }

  /** The cell's BENCH details after the ratio (a measured cell's). */
  String details() {
    return String.format(
        Locale.ROOT,
        "min=%.3f max=%.3f runs=%d%s reduce_phase_s stock=%s ours=%s"
            + " stock_reducer_disk_bytes=%d ours_spilled/input=%.3f",
        min(ratios),
        max(ratios),
        ratios.size(),
        failures.isEmpty() ? "" : " failed_runs=" + failures.size(),
        spread("%.1f [%.1f-%.1f]", stock),
        spread("%.1f [%.1f-%.1f]", ours),
        stockDiskBytes,
        reduceInputBytes == 0 ? 0.0 : spilledBytes / (double) reduceInputBytes);
  }

  /**
   * A markdown table row: cell, stock, ours, ratio; failed runs are counted in the ratio's cell.
   */
  String row() {
    if (!measured()) {
      return String.format(
          Locale.ROOT,
          "| %s | %s | %s | - | - | all %d runs failed (see the output) |",
          disk,
          load,
          memory,
          failures.size());
    }
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s | %s%s |",
        disk,
        load,
        memory,
        spread("%.1f (%.1f-%.1f)", stock),
        spread("%.1f (%.1f-%.1f)", ours),
        spread("%.2f (%.2f-%.2f)", ratios),
        failures.isEmpty()
            ? ""
            : "; " + failures.size() + " of " + (failures.size() + ratios.size()) + " runs failed");
  }

  /** {@code values}' median, min and max, in that order, formatted with {@code format}. */
  static String spread(String format, List<Double> values) {
    return String.format(Locale.ROOT, format, median(values), min(values), max(values));
  }
}
