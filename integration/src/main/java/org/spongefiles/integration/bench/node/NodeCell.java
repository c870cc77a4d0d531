package org.spongefiles.integration.bench.node;

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

  /** The cell's BENCH details after the ratio. */
  String details() {
    return String.format(
        Locale.ROOT,
        "min=%.3f max=%.3f runs=%d reduce_phase_s stock=%s ours=%s"
            + " stock_reducer_disk_bytes=%d ours_spilled/input=%.3f",
        min(ratios),
        max(ratios),
        ratios.size(),
        spread("%.1f [%.1f-%.1f]", stock),
        spread("%.1f [%.1f-%.1f]", ours),
        stockDiskBytes,
        reduceInputBytes == 0 ? 0.0 : spilledBytes / (double) reduceInputBytes);
  }

  /** A markdown table row: cell, stock, ours, ratio. */
  String row() {
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s | %s |",
        disk,
        load,
        memory,
        spread("%.1f (%.1f-%.1f)", stock),
        spread("%.1f (%.1f-%.1f)", ours),
        spread("%.2f (%.2f-%.2f)", ratios));
  }

  /** {@code values}' median, min and max, in that order, formatted with {@code format}. */
  static String spread(String format, List<Double> values) {
    return String.format(Locale.ROOT, format, median(values), min(values), max(values));
  }
}
