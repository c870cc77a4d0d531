package org.spongefiles.bench.tracker;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.spongefiles.bench.ProcStat;
import org.spongefiles.tracker.TrackerMain;

/** A memory tracker in a JVM of its own, logging as shipped, killed with SIGKILL or stopped. */
final class TrackerProcess implements Closeable {
  final int port;
  final int metricsPort;
  private final Process process;

  private TrackerProcess(int port, int metricsPort, Process process) {
    this.port = port;
    this.metricsPort = metricsPort;
    this.process = process;
  }

  static TrackerProcess start(String quorum, String name) throws IOException {
    int port = freePort();
    int metricsPort = freePort();
    // Log like the distribution's conf/log4j.properties: without a configuration log4j 1.x runs at
    // DEBUG, and ZooKeeper's client then formats every response it receives.
    Path logConfig = Files.createTempFile("trackerbench-log4j", ".properties");
    logConfig.toFile().deleteOnExit();
    Files.writeString(
        logConfig,
        "log4j.rootLogger=WARN, console\n"
            + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-Xmx512m",
            "-Dzookeeper.admin.enableServer=false",
            "-Dlog4j.configuration=" + logConfig.toUri(),
            "-cp",
            System.getProperty("java.class.path")));
    String extra = System.getProperty("bench.tracker.jvm", "").trim();
    if (!extra.isEmpty()) {
      command.addAll(List.of(extra.split("\\s+")));
    }
    command.add(TrackerMain.class.getName());
    command.addAll(
        List.of(
            "-Dsponge.node.id=" + name,
            "-Dsponge.zookeeper.quorum=" + quorum,
            "-Dsponge.tracker.bind.host=127.0.0.1",
            "-Dsponge.tracker.port=" + port,
            "-Dsponge.tracker.address=127.0.0.1:" + port,
            "-Dsponge.tracker.metrics.port=" + metricsPort,
            "-Dsponge.auth.none=true"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    Thread drain =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = out.readLine()) != null) {
                  if (line.contains("WARN") || line.contains("ERROR")) {
                    System.out.println("  [" + name + "] " + line);
                  }
                }
              } catch (IOException e) {
                // the tracker ended
              }
            },
            "drain-" + name);
    drain.setDaemon(true);
    drain.start();
    return new TrackerProcess(port, metricsPort, process);
  }

  String endpoint() {
    return "127.0.0.1:" + port;
  }

  /** CPU time of the tracker's process so far. */
  long cpuNanos() {
    return process
        .info()
        .totalCpuDuration()
        .map(Duration::toNanos)
        .orElseThrow(() -> new IllegalStateException("no CPU time for the tracker"));
  }

  /**
   * CPU time so far by kind of thread, in ns, from /proc (empty where there is none): {@code
   * compiler} (the JIT's C1/C2 threads), {@code gc}, {@code loop} (Netty's event loops:
   * connections, reports, pushes, ticks) and {@code other} (ZooKeeper's client, Curator, metrics,
   * the JVM).
   */
  Map<String, Long> cpuNanosByKind() throws IOException {
    Map<String, Long> kinds = new TreeMap<>();
    Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
    if (!Files.isDirectory(tasks)) {
      return kinds;
    }
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        String stat;
        try {
          stat = Files.readString(thread.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended meanwhile
        }
        kinds.merge(
            kind(ProcStat.name(stat)),
            ProcStat.cpuTicks(stat) * ProcStat.NANOS_PER_TICK,
            Long::sum);
      }
    }
    return kinds;
  }

  private static String kind(String thread) {
    if (thread.startsWith("C1 Compiler") || thread.startsWith("C2 Compiler")) {
      return "compiler";
    }
    if (thread.startsWith("GC Thread") || thread.startsWith("G1 ") || thread.equals("VM Thread")) {
      return "gc";
    }
    if (thread.startsWith("nioEventLoop")) {
      return "loop";
    }
    return "other";
  }

  /** kill -9. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
