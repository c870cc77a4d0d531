package org.spongefiles.bench.node;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A markdown table a node benchmark writes into {@code bench.node.out} ({@code
 * ../docs/results/node-sweep} from integration/, where the bench profile runs): a title, what the
 * rows measure, the machine and its load when the table was written, the rows, then notes. The
 * committed tables are these files, rewritten by every run ({@link NodeResults} runs them all).
 */
final class ResultTable {
  private final String title;
  private final String description;
  private final List<String> header = new ArrayList<>();
  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  ResultTable(String title, String description) {
    this.title = title;
    this.description = description;
  }

  /** The column names. */
  ResultTable columns(String... names) {
    header.addAll(List.of(names));
    return this;
  }

  /** A row, one cell per column. */
  void row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(
          title + ": a row of " + cells.length + " cells for " + header.size() + " columns");
    }
    StringBuilder line = new StringBuilder("|");
    for (Object cell : cells) {
      line.append(' ').append(cell).append(" |");
    }
    rows.add(line.toString());
  }

  /** A line under the table. */
  void note(String note) {
    notes.add(note);
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Writes the table to {@code fileName} in {@code bench.node.out}; returns the file. */
  Path write(String fileName) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("# " + title);
    lines.add("");
    lines.add(description);
    lines.add("");
    lines.add("- Machine: " + machine());
    lines.add("");
    lines.add("| " + String.join(" | ", header) + " |");
    lines.add("|" + "---|".repeat(header.size()));
    lines.addAll(rows);
    if (!notes.isEmpty()) {
      lines.add("");
      notes.forEach(note -> lines.add("- " + note));
    }
    Path dir = out();
    Files.createDirectories(dir);
    Path file = dir.resolve(fileName);
    Files.write(file, lines, StandardCharsets.UTF_8);
    return file;
  }

  /** Where every node benchmark writes its tables and plots. */
  static Path out() {
    return Path.of(System.getProperty("bench.node.out", "../docs/results/node-sweep"));
  }

  /** Cores, memory, JDK, kernel and the load average over the last minute. */
  static String machine() {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return String.format(
        Locale.ROOT,
        "%d cores, JDK %s, %s %s; load average %.1f over the minute before this table was"
            + " written (every benchmark process, and anything else running, shares these cores)",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        load);
  }
}
