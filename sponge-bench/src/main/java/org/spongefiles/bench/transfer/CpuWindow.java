package org.spongefiles.bench.transfer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.spongefiles.bench.ProcStat;

/**
 * The CPU that processes and their threads spend in a timed window, from Linux's {@code
 * /proc/<pid>/task/<tid>/stat} (user + system ticks), against what the machine had: its cores times
 * the wall time, and its idle time from {@code /proc/stat}. Threads are sampled every 250 ms; a
 * process's own total ({@code /proc/<pid>/stat}, which keeps the time of ended threads) is exact,
 * and what its threads that ended inside the window spent after their last sample is reported as
 * {@code (ended threads)}. Threads are grouped by name without digits. Linux only: see {@link
 * #available}.
 */
final class CpuWindow implements AutoCloseable {
  private static final Path PROC = Path.of("/proc");
  private static final double TICKS = ProcStat.TICKS_PER_SECOND;

  private final Map<String, Long> pids;
  private final Map<String, Long> processStart = new HashMap<>();
  private final Map<Long, Long> threadStart = new HashMap<>();
  private final Map<Long, Long> lastSeen = new HashMap<>(); // tid -> ticks at the last sample
  private final Map<Long, String> threadGroup = new HashMap<>();
  private final long[] machineStart;
  private final long wallStart = System.nanoTime();
  private final Thread sampler;

  /** Starts the window over {@code pids} (label to process id). */
  CpuWindow(Map<String, Long> pids) {
    this.pids = pids;
    this.machineStart = machine();
    for (Map.Entry<String, Long> process : pids.entrySet()) {
      processStart.put(process.getKey(), processTicks(process.getValue()));
      sampleThreads(process.getKey(), process.getValue(), threadStart);
    }
    sampler =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                sample();
                try {
                  Thread.sleep(250);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "cpu-window-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  static boolean available() {
    return Files.isReadable(PROC.resolve("stat"));
  }

  private synchronized void sample() {
    for (Map.Entry<String, Long> process : pids.entrySet()) {
      Map<Long, Long> now = new HashMap<>();
      sampleThreads(process.getKey(), process.getValue(), now);
      lastSeen.putAll(now);
    }
  }

  private void sampleThreads(String label, long pid, Map<Long, Long> into) {
    Path tasks = PROC.resolve(Long.toString(pid)).resolve("task");
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
      for (Path task : dir) {
        long tid = Long.parseLong(task.getFileName().toString());
        try {
          into.put(
              tid,
              ProcStat.cpuTicks(Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII)));
          synchronized (this) {
            if (!threadGroup.containsKey(tid)) {
              String name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII);
              threadGroup.put(tid, label + " " + name.trim().replaceAll("[0-9]+", "#"));
            }
          }
        } catch (IOException e) {
          // the thread ended while listed
        }
      }
    } catch (IOException e) {
      // the process ended: its last sample stands
    }
  }

  private static long processTicks(long pid) {
    try {
      return ProcStat.cpuTicks(
          Files.readString(
              PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.US_ASCII));
    } catch (IOException e) {
      return 0;
    }
  }

  /** {total, idle} ticks of all cores, from the first line of {@code /proc/stat}. */
  private static long[] machine() {
    try {
      String first = Files.readAllLines(PROC.resolve("stat"), StandardCharsets.US_ASCII).get(0);
      String[] f = first.trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < f.length && i <= 8; i++) {
        total += Long.parseLong(f[i]);
      }
      return new long[] {total, Long.parseLong(f[4]) + Long.parseLong(f[5])};
    } catch (IOException e) {
      return new long[] {0, 0};
    }
  }

  /**
   * Ends the window and returns its report: the machine's core-seconds and idle share, each
   * process's core-seconds, and its thread groups' core-seconds, largest first.
   */
  List<String> report() {
    sampler.interrupt();
    try {
      sampler.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sample();
    double wall = (System.nanoTime() - wallStart) / 1e9;
    long[] machineEnd = machine();
    int cores = Runtime.getRuntime().availableProcessors();
    List<String> lines = new ArrayList<>();
    double busy = ((machineEnd[0] - machineStart[0]) - (machineEnd[1] - machineStart[1])) / TICKS;
    lines.add(
        String.format(
            Locale.ROOT,
            "cpu: %.1f s wall x %d cores = %.1f core-s; busy %.1f core-s (%.0f%%), idle %.1f",
            wall,
            cores,
            wall * cores,
            busy,
            100 * busy / (wall * cores),
            wall * cores - busy));
    Map<String, Double> groups = new TreeMap<>();
    synchronized (this) {
      for (Map.Entry<Long, Long> seen : lastSeen.entrySet()) {
        long before = threadStart.getOrDefault(seen.getKey(), 0L);
        groups.merge(
            threadGroup.get(seen.getKey()), (seen.getValue() - before) / TICKS, Double::sum);
      }
    }
    for (Map.Entry<String, Long> process : pids.entrySet()) {
      double seconds =
          (processTicks(process.getValue()) - processStart.get(process.getKey())) / TICKS;
      double sampled =
          groups.entrySet().stream()
              .filter(g -> g.getKey().startsWith(process.getKey() + " "))
              .mapToDouble(Map.Entry::getValue)
              .sum();
      groups.put(process.getKey() + " (ended threads)", seconds - sampled);
      StringBuilder line =
          new StringBuilder(
              String.format(Locale.ROOT, "cpu: %s %.1f core-s:", process.getKey(), seconds));
      groups.entrySet().stream()
          .filter(g -> g.getKey().startsWith(process.getKey() + " ") && g.getValue() >= 0.05)
          .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
          .forEach(
              g ->
                  line.append(
                      String.format(
                          Locale.ROOT,
                          " %s %.1f,",
                          g.getKey().substring(process.getKey().length() + 1),
                          g.getValue())));
      line.setLength(line.length() - 1);
      lines.add(line.toString());
    }
    return lines;
  }

  @Override
  public void close() {
    sampler.interrupt();
  }
}
