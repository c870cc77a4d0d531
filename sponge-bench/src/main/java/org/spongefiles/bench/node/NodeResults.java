package org.spongefiles.bench.node;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.spongefiles.emulator.EmulatorSupport;
import org.spongefiles.testkit.ChildProcesses;
import org.spongefiles.workloads.BenchReport;

/**
 * Issue 11's one command: every node benchmark in turn, each in its own JVM, regenerating every
 * committed table and plot in {@code bench.node.out} and keeping each one's whole output (its
 * {@code BENCH} lines included) beside them as {@code <part>.txt}. The parts, in order:
 *
 * <ul>
 *   <li>{@code disk-classes}: {@link DiskClassBench} (disk-classes.md);
 *   <li>{@code spill-classes}: {@link SpillClassBench} (spill-classes.md);
 *   <li>{@code sweep}: {@link NodeSweep}, the cells, the remote cells and {@link RemoteTierBench}
 *       (node-sweep.md, the plots, remote-tier.md);
 *   <li>{@code blocked-time}: {@link BlockedTimeBench} (blocked-time.md).
 * </ul>
 *
 * <p>After a sweep that finished, the table per node class in docs/performance.md is regenerated
 * from the new results ({@link PerformancePage}).
 *
 * <p>Without root every part runs what it can (the sweep's nvme rows in a plain directory) and
 * names what it did not run; this command says once, first, why. Every {@code bench.*} and {@code
 * sponge.*} property of this JVM is passed to the parts. Properties: {@code bench.node.benches}
 * (all four, in the order above), {@code bench.node.bench.jvm} (options of each part's JVM,
 * -Xmx512m).
 */
public final class NodeResults {
  /** One benchmark of the node emulator and the JVM it runs in. */
  enum Part {
    DISK_CLASSES("disk-classes", DiskClassBench.class),
    SPILL_CLASSES("spill-classes", SpillClassBench.class),
    SWEEP("sweep", NodeSweep.class),
    BLOCKED_TIME("blocked-time", BlockedTimeBench.class);

    final String label;
    final Class<?> main;

    Part(String label, Class<?> main) {
      this.label = label;
      this.main = main;
    }

    static Part of(String label) {
      for (Part part : values()) {
        if (part.label.equals(label)) {
          return part;
        }
      }
      List<String> known = new ArrayList<>();
      for (Part part : values()) {
        known.add(part.label);
      }
      throw new IllegalArgumentException(
          "bench.node.benches: unknown part '" + label + "'; the parts are " + known);
    }
  }

  /** The part running now: stopped (and waited for, so its teardown runs) if this JVM is. */
  private static volatile Process running;

  private NodeResults() {}

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    List<Part> parts = parts(System.getProperty("bench.node.benches", ""));
    EmulatorSupport support = EmulatorSupport.probe();
    if (!support.missing().isEmpty()) {
      BenchReport.info(
          "NOT RUN here: everything beyond the nvme rows, because %s",
          String.join("; ", support.missing()));
    }
    Path out = ResultTable.out();
    Files.createDirectories(out);
    Runtime.getRuntime().addShutdownHook(new Thread(NodeResults::stopRunning, "stop-part"));
    Map<Part, Integer> exits = new TreeMap<>();
    for (Part part : parts) {
      exits.put(part, run(part, out));
    }
    boolean failed = false;
    for (Map.Entry<Part, Integer> exit : exits.entrySet()) {
      BenchReport.info(
          "%s: %s, output %s",
          exit.getKey().label,
          exit.getValue() == 0 ? "done" : "FAILED (exit " + exit.getValue() + ")",
          out.resolve(exit.getKey().label + ".txt"));
      failed |= exit.getValue() != 0;
    }
    Path page = PerformancePage.page(out);
    if (exits.getOrDefault(Part.SWEEP, 1) == 0 && Files.exists(page)) {
      PerformancePage.update(out, page);
      BenchReport.info("%s: the table per node class regenerated", page);
    }
    System.exit(failed ? 1 : 0);
  }

  /** The parts named in {@code value} (comma-separated), in the order given; empty: all. */
  static List<Part> parts(String value) {
    List<Part> parts = new ArrayList<>();
    for (String label : value.split(",")) {
      if (!label.isBlank()) {
        parts.add(Part.of(label.trim().toLowerCase(Locale.ROOT)));
      }
    }
    return parts.isEmpty() ? List.of(Part.values()) : parts;
  }

  /** Runs {@code part} in its own JVM, its output shown and kept; returns its exit code. */
  private static int run(Part part, Path out) throws IOException, InterruptedException {
    List<String> options = new ArrayList<>();
    for (String option :
        System.getProperty("bench.node.bench.jvm", "-Xmx512m").trim().split("\\s+")) {
      if (!option.isEmpty()) {
        options.add(option);
      }
    }
    options.addAll(forwardedProperties());
    Path output = out.resolve(part.label + ".txt");
    BenchReport.info("%s: %s, output to %s", part.label, part.main.getSimpleName(), output);
    Process process =
        new ProcessBuilder(ChildProcesses.java(options, part.main, List.of()))
            .redirectErrorStream(true)
            .start();
    running = process;
    try (BufferedReader lines =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BufferedWriter file = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
      String line;
      while ((line = lines.readLine()) != null) {
        System.out.println(line);
        file.write(line);
        file.newLine();
        file.flush();
      }
    }
    int exit = process.waitFor();
    running = null;
    return exit;
  }

  /**
   * Stops the running part with SIGTERM, whose shutdown hook removes what it made ({@link
   * Teardown}), and waits for it to finish doing so.
   */
  private static void stopRunning() {
    Process process = running;
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        System.err.println("The running part did not stop in 2 minutes; killing it");
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@code -D<key>=<value>} for every {@code bench.*} and {@code sponge.*} property here. */
  static List<String> forwardedProperties() {
    List<String> options = new ArrayList<>();
    for (String key : new TreeSet<>(System.getProperties().stringPropertyNames())) {
      if ((key.startsWith("bench.") || key.startsWith("sponge."))
          && !key.equals("bench.node.benches")
          && !key.equals("bench.node.bench.jvm")) {
        options.add("-D" + key + "=" + System.getProperty(key));
      }
    }
    return options;
  }
}
