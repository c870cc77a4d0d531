package org.spongefiles.bench.transfer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.server.ServerMain;
import org.spongefiles.workloads.BenchReport;

/**
 * One sponge server (its own JVM, as shipped: 2 event loops) with many task connections, as a
 * 64-core node running many small tasks opens (issue 31, item 3): {@code bench.connections} (2,000)
 * connections, each its own task identity, open at once; {@code bench.drivers} (32) threads take
 * them in turn, each turn allocating a chunk, writing 64 KiB into it and freeing it. Measures the
 * server's resident memory per open connection, its CPU with the connections idle and under the
 * churn (per operation), and one legitimate task's 1 MiB write (allocate, write, free) latency p99
 * during the churn against the same on the idle server ({@code bench.iterations}, 500 each).
 */
public final class ServerConnectionsBench {
  private static final int MIB = 1 << 20;
  private static final int CONNECTIONS = Integer.getInteger("bench.connections", 2000);
  private static final int DRIVERS = Integer.getInteger("bench.drivers", 32);
  private static final int ITERATIONS = Integer.getInteger("bench.iterations", 500);
  private static final int SECONDS = Integer.getInteger("bench.seconds", 20);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    Path pool = Files.createTempDirectory(Path.of("/dev/shm"), "connbench-");
    Child server = startServer(pool);
    try {
      run(server.process, ServerAddress.parse(server.endpoint));
    } finally {
      server.process.destroyForcibly();
      server.process.waitFor();
      try (var files = Files.walk(pool)) {
        files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void run(Process server, ServerAddress address) throws Exception {
    byte[] mib = new byte[MIB];
    Arrays.fill(mib, (byte) 7);
    try (RemoteConnection legit = open(address, "attempt_legit_0")) {
      Thread.sleep(3000);
      writes(legit, mib, ITERATIONS); // warm-up
      long[] idle = writes(legit, mib, ITERATIONS);
      long rssIdle = rssKiB(server);
      double cpuIdle = cpuPerWall(server, 5);
      List<RemoteConnection> tasks = new ArrayList<>();
      try {
        for (int i = 0; i < CONNECTIONS; i++) {
          tasks.add(open(address, "attempt_conn_" + i));
        }
        Thread.sleep(3000);
        long rssOpen = rssKiB(server);
        double cpuOpen = cpuPerWall(server, 5);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong ops = new AtomicLong();
        List<Thread> drivers = new ArrayList<>();
        for (int d = 0; d < DRIVERS; d++) {
          List<RemoteConnection> mine = new ArrayList<>();
          for (int i = d; i < tasks.size(); i += DRIVERS) {
            mine.add(tasks.get(i));
          }
          Thread driver = new Thread(() -> churn(mine, stop, ops), "driver-" + d);
          driver.start();
          drivers.add(driver);
        }
        Thread.sleep(3000);
        long cpu0 = cpuNanos(server);
        long ops0 = ops.get();
        long wall0 = System.nanoTime();
        long[] loaded = writes(legit, mib, ITERATIONS);
        while (System.nanoTime() - wall0 < SECONDS * 1_000_000_000L) {
          Thread.sleep(100);
        }
        double wall = (System.nanoTime() - wall0) / 1e9;
        double cpuLoad = (cpuNanos(server) - cpu0) / 1e9 / wall;
        long churned = ops.get() - ops0;
        long rssLoad = rssKiB(server);
        stop.set(true);
        for (Thread driver : drivers) {
          driver.join();
        }
        report(idle, loaded, rssIdle, rssOpen, rssLoad, cpuIdle, cpuOpen, cpuLoad, churned, wall);
      } finally {
        for (RemoteConnection task : tasks) {
          task.close();
        }
      }
    }
  }

  private static void report(
      long[] idle,
      long[] loaded,
      long rssIdle,
      long rssOpen,
      long rssLoad,
      double cpuIdle,
      double cpuOpen,
      double cpuLoad,
      long churned,
      double wall) {
    double p99Idle = p99(idle) / 1e6;
    double p99Loaded = p99(loaded) / 1e6;
    double perConnKiB = (rssOpen - rssIdle) / (double) CONNECTIONS;
    BenchReport.info(
        "connections=%d: server RSS %d MiB idle with one task, %d MiB with %d more open, %d MiB"
            + " under the churn; CPU/wall %.3f idle, %.3f with the connections open, %.3f under"
            + " %.0f allocate-write-free/s; a task's 1 MiB write p50 %.2f ms idle, %.2f ms under"
            + " the churn",
        CONNECTIONS,
        rssIdle >> 10,
        rssOpen >> 10,
        CONNECTIONS,
        rssLoad >> 10,
        cpuIdle,
        cpuOpen,
        cpuLoad,
        churned / wall,
        p50(idle) / 1e6,
        p50(loaded) / 1e6);
    String tag = "connections=" + CONNECTIONS;
    BenchReport.bench(
        "server-connection-memory",
        perConnKiB,
        String.format(
            Locale.ROOT,
            "%s rss_idle_mib=%d rss_open_mib=%d rss_churn_mib=%d (ratio: KiB of server RSS per"
                + " open task connection)",
            tag,
            rssIdle >> 10,
            rssOpen >> 10,
            rssLoad >> 10));
    BenchReport.bench(
        "server-connection-cpu",
        cpuLoad * 1e6 / (churned / wall),
        String.format(
            Locale.ROOT,
            "%s cpu_idle=%.3f cpu_open=%.3f cpu_churn=%.3f ops_per_s=%.0f (ratio: server CPU us"
                + " per allocate + 64 KiB write + free under the churn)",
            tag,
            cpuIdle,
            cpuOpen,
            cpuLoad,
            churned / wall));
    BenchReport.bench(
        "server-connections-write-p99",
        p99Loaded / p99Idle,
        String.format(
            Locale.ROOT,
            "%s p99_ms_churn=%.2f p99_ms_idle=%.2f p50_ms_churn=%.2f p50_ms_idle=%.2f"
                + " (ratio: a task's 1 MiB write p99 under the churn / idle server)",
            tag,
            p99Loaded,
            p99Idle,
            p50(loaded) / 1e6,
            p50(idle) / 1e6));
  }

  /** Each connection in turn: allocate a chunk, write 64 KiB into it, free it. */
  private static void churn(List<RemoteConnection> mine, AtomicBoolean stop, AtomicLong ops) {
    ByteBuffer data = ByteBuffer.allocate(64 << 10);
    try {
      while (!stop.get()) {
        for (RemoteConnection task : mine) {
          List<ChunkHandle> chunk = task.allocate(1);
          if (!chunk.isEmpty()) {
            task.write(chunk.get(0), 0, data.clear());
            task.free(chunk);
          }
          ops.incrementAndGet();
          if (stop.get()) {
            return;
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("a churning task failed", e);
    }
  }

  /** {@code n} timed 1 MiB writes: allocate a chunk, write it whole, free it. */
  private static long[] writes(RemoteConnection task, byte[] mib, int n) throws IOException {
    long[] t = new long[n];
    ByteBuffer data = ByteBuffer.wrap(mib);
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      List<ChunkHandle> chunk = task.allocate(1);
      if (chunk.isEmpty()) {
        throw new IllegalStateException("the server had no chunk for the legitimate task");
      }
      task.write(chunk.get(0), 0, data.clear());
      t[i] = System.nanoTime() - t0;
      task.free(chunk);
    }
    Arrays.sort(t);
    return t;
  }

  private static double p99(long[] sorted) {
    return sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
  }

  private static double p50(long[] sorted) {
    return sorted[sorted.length / 2];
  }

  private static RemoteConnection open(ServerAddress address, String task) throws IOException {
    return RemoteConnection.open(
        address,
        new ClientIdentity("", (int) ProcessHandle.current().pid(), 0, 1, task),
        null,
        TIMEOUT,
        TIMEOUT);
  }

  /** A child JVM and the endpoint its READY line named. */
  private static final class Child {
    final Process process;
    final String endpoint;

    Child(Process process, String endpoint) {
      this.process = process;
      this.endpoint = endpoint;
    }
  }

  /** The server as shipped (2 event loops), its pool big enough that no churn is refused. */
  private static Child startServer(Path pool) throws IOException {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                ServerMain.class.getName(),
                "-Dsponge.node.id=connbench",
                "-Dsponge.server.bind.host=127.0.0.1",
                "-Dsponge.server.port=" + port,
                "-Dsponge.server.address=127.0.0.1:" + port,
                "-Dsponge.server.metrics.port=-1",
                // Every task of a node connects from the node's own address.
                "-Dsponge.server.max.connections.per.address=" + (CONNECTIONS + 16),
                "-Dsponge.auth.none=true",
                "-Dsponge.pool.dir=" + pool,
                "-Dsponge.pool.size=256m"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("READY")) {
        String endpoint = line.split(" ")[1];
        Thread drain =
            new Thread(
                () -> {
                  try {
                    while (out.readLine() != null) {
                      // keep the pipe from filling up
                    }
                  } catch (IOException e) {
                    // the server ended
                  }
                });
        drain.setDaemon(true);
        drain.start();
        return new Child(process, endpoint);
      }
    }
    throw new IOException("the sponge server exited before it was ready");
  }

  private static long rssKiB(Process process) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", "" + process.pid(), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmRSS for the server's process " + process.pid());
  }

  private static long cpuNanos(Process process) {
    return process
        .info()
        .totalCpuDuration()
        .map(Duration::toNanos)
        .orElseThrow(() -> new IllegalStateException("no CPU time for the server"));
  }

  private static double cpuPerWall(Process process, int seconds) throws InterruptedException {
    long cpu0 = cpuNanos(process);
    long wall0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    return (cpuNanos(process) - cpu0) / (double) (System.nanoTime() - wall0);
  }

  private ServerConnectionsBench() {}
}
