package org.spongefiles.bench.transfer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bench.OneSpill;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.server.ServerMain;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.TestCertificates;
import org.spongefiles.workloads.BenchReport;

/**
 * SpongeFiles Table 1, memory columns: 1 MiB spills (and reads back) to a sponge server in the same
 * JVM ({@code server-*}, the paper's "local sponge server", 7 ms) and in another process ({@code
 * remote-*}, the paper's "remote memory", 9 ms), each beside a raw 1 MiB loopback socket exchange
 * with a peer in the same place, alternating in one loop. Then the load run: 8 tasks each spilling
 * {@code bench.load.gib} GiB (as 256 MiB files) through 2 server processes with capped memory,
 * every byte verified, beside the same bytes over raw sockets to a peer that keeps each file until
 * it is read back, as the servers do, once as they are and once with each block read copied into a
 * heap array as a task's input stream does (the target's "raw sockets plus one memory copy"); all
 * after {@code bench.load.warmup.files} untimed files per writer, so that no side is timed while
 * its fresh JVM compiles. Each untimed file is written by a task (or raw connection) of its own, as
 * a long-lived server sees tasks come and go: with one task per writer through the warm-up, the
 * timed run's tasks were the servers' first connections opened and closed since their start, and
 * the servers' compiled event-loop code, profiled without them, was deoptimized and compiled again
 * inside the timed window. The timed run is one task (one raw connection) per writer. The load
 * run's CPU is reported per process and thread group ({@code cpu:} lines, from {@code /proc}), with
 * the servers' requests per chunk and how long the writers waited on their files' writes and reads
 * (the tasks' blocked times, summed).
 *
 * <p>Every 1 MiB round also spills to a second server with TLS on ({@code sponge.tls.enabled},
 * certificates made with keytool at start), alternating with the plaintext one in the same loop, so
 * {@code *-tls-*} lines compare TLS with the raw socket and {@code *-tls-cost-*} with plaintext;
 * the load run is made once in plaintext and once with TLS on.
 *
 * <p>Properties: {@code bench.iterations} (3000), {@code bench.warmup} (1000), {@code
 * bench.load.gib} (2; 0 skips the load run), {@code bench.load.warmup.files} (12), {@code
 * bench.tls} (true; false leaves the TLS server and its rows out, so that the plaintext rows
 * compare with a build that had no TLS: the TLS spills between them cost the plaintext ones some
 * time of their own); {@code bench.task.<key>} sets {@code <key>} in the benchmark tasks'
 * configuration (e.g. {@code -Dbench.task.sponge.write.buffers=1}, to compare task settings in the
 * same build); {@code bench.child.jvm} adds options to every child JVM, the servers' included (e.g.
 * {@code -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit} for a perf profile).
 */
public final class ServerBench {
  private static final int MIB = 1 << 20;

  private final int iterations = Integer.getInteger("bench.iterations", 3_000);
  private final int warmup = Integer.getInteger("bench.warmup", 1_000);
  private final int loadGib = Integer.getInteger("bench.load.gib", 2);
  private final int loadWarmupFiles = Integer.getInteger("bench.load.warmup.files", 12);
  private final LongAdder blockedWrite = new LongAdder();
  private final LongAdder blockedRead = new LongAdder();
  private final boolean tls = Boolean.parseBoolean(System.getProperty("bench.tls", "true"));
  private final byte[] source = new byte[MIB];
  private final byte[] target = new byte[MIB];
  private final List<Path> dirs = new ArrayList<>();
  private final List<Process> children = new ArrayList<>();
  private TestCertificates ca;
  private Path taskPoolDir;

  private ServerBench() {
    new SplittableRandom(42).nextBytes(source);
  }

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    ServerBench bench = new ServerBench();
    try {
      bench.run();
    } finally {
      bench.cleanUp();
    }
  }

  private void run() throws Exception {
    BenchReport.info(
        "1 MiB spills, %d iterations after %d warm-up, %s",
        iterations, warmup, tls ? "plaintext and TLS alternating" : "plaintext only");
    ca = TestCertificates.authority(tempDir("serverbench-ca"), "bench");
    Timing[] local;
    try (SpongeServer server = SpongeServer.start(serverConf("bench-local", "64m", false));
        SpongeServer tlsServer =
            tls ? SpongeServer.start(serverConf("bench-local-tls", "64m", true)) : null;
        RawSocketServer raw = new RawSocketServer()) {
      local = round("server", server.endpoint(), tls ? tlsServer.endpoint() : null, raw.port());
    }
    String remoteEndpoint =
        startChild(ServerMain.class, serverArgs("bench-remote", "64m", false), "-Xmx256m")
            .split(" ")[1];
    String remoteTlsEndpoint =
        tls
            ? startChild(ServerMain.class, serverArgs("bench-remote-tls", "64m", true), "-Xmx256m")
                .split(" ")[1]
            : null;
    int remoteRaw =
        Integer.parseInt(startChild(RawSocketServer.class, List.of(), "-Xmx64m").split(" ")[1]);
    Timing[] remote = round("remote", remoteEndpoint, remoteTlsEndpoint, remoteRaw);
    for (Timing t : local) {
      if (t.meanMicros() > 0) {
        BenchReport.info("%s", t.summary());
      }
    }
    for (Timing t : remote) {
      if (t.meanMicros() > 0) {
        BenchReport.info("%s", t.summary());
      }
    }
    BenchReport.info(
        "Table 1 (paper, 1 Gb Ethernet, 2014): local sponge server 7 ms, remote 9 ms per 1 MB;"
            + " here: in-JVM server %.3f ms, server process %.3f ms",
        local[2].meanMicros() / 1000, remote[2].meanMicros() / 1000);
    report("server-write", local[2], local[0]);
    report("server-read", local[3], local[1]);
    report("remote-write", remote[2], remote[0]);
    report("remote-read", remote[3], remote[1]);
    if (!tls) {
      if (loadGib > 0) {
        load(false);
      }
      return;
    }
    report("server-tls-write", local[4], local[0]);
    report("server-tls-read", local[5], local[1]);
    report("remote-tls-write", remote[4], remote[0]);
    report("remote-tls-read", remote[5], remote[1]);
    cost("server-tls-cost-write", local[4], local[2]);
    cost("server-tls-cost-read", local[5], local[3]);
    cost("remote-tls-cost-write", remote[4], remote[2]);
    cost("remote-tls-cost-read", remote[5], remote[3]);
    if (loadGib > 0) {
      double plain = load(false);
      double tls = load(true);
      BenchReport.bench(
          "server-load-tls-cost",
          tls / plain,
          String.format(Locale.ROOT, "tls_s=%.1f plain_s=%.1f", tls, plain));
    }
  }

  private static void report(String measure, Timing ours, Timing raw) {
    BenchReport.bench(
        measure,
        ours.ratioTo(raw),
        String.format(
            Locale.ROOT,
            "ours_us=%.1f raw_socket_us=%.1f ours_median_us=%.1f raw_median_us=%.1f",
            ours.meanMicros(),
            raw.meanMicros(),
            ours.medianMicros(),
            raw.medianMicros()));
  }

  /** TLS against plaintext: the ratio of the means, medians beside. */
  private static void cost(String measure, Timing tls, Timing plain) {
    BenchReport.bench(
        measure,
        tls.ratioTo(plain),
        String.format(
            Locale.ROOT,
            "tls_us=%.1f plain_us=%.1f tls_median_us=%.1f plain_median_us=%.1f",
            tls.meanMicros(),
            plain.meanMicros(),
            tls.medianMicros(),
            plain.medianMicros()));
  }

  /**
   * Raw socket write and read, then a SpongeFile spilled to the plaintext server and read back,
   * then one spilled to the TLS server and read back.
   */
  private Timing[] round(String name, String endpoint, String tlsEndpoint, int rawPort)
      throws IOException {
    Timing[] t = {
      new Timing(name + "-raw-socket-write", iterations),
      new Timing(name + "-raw-socket-read", iterations),
      new Timing(name + "-write", iterations),
      new Timing(name + "-read", iterations),
      new Timing(name + "-tls-write", iterations),
      new Timing(name + "-tls-read", iterations)
    };
    ByteBuffer direct = ByteBuffer.allocateDirect(MIB);
    try (RawSocketClient raw = new RawSocketClient(rawPort);
        SpongeTask task = SpongeTask.open(clientConf(endpoint), "attempt_serverbench_" + name);
        SpongeTask tlsTask =
            tlsEndpoint == null
                ? null
                : SpongeTask.open(
                    ca.client(clientConf(tlsEndpoint)), "attempt_serverbench_tls_" + name)) {
      for (int i = 0; i < warmup + iterations; i++) {
        boolean measured = i >= warmup;
        direct.clear();
        direct.put(source).flip();
        long t0 = System.nanoTime();
        raw.write(direct);
        long t1 = System.nanoTime();
        direct.clear();
        raw.read(direct);
        direct.flip().get(target);
        long t2 = System.nanoTime();
        SpongeFile file = OneSpill.write(task, source);
        long t3 = System.nanoTime();
        OneSpill.read(file, target);
        long t4 = System.nanoTime();
        file.delete();
        if (i == warmup && !Arrays.equals(source, target)) {
          throw new AssertionError(name + ": bytes read back differ");
        }
        Arrays.fill(target, (byte) 0);
        if (measured) {
          t[0].add(t1 - t0);
          t[1].add(t2 - t1);
          t[2].add(t3 - t2);
          t[3].add(t4 - t3);
        }
        if (tlsTask == null) {
          continue;
        }
        SpongeFile tlsFile = tlsTask.create("spill-tls");
        long t5 = System.nanoTime();
        try (OutputStream out = tlsFile.output()) {
          out.write(source);
        }
        long t6 = System.nanoTime();
        OneSpill.read(tlsFile, target);
        long t7 = System.nanoTime();
        tlsFile.delete();
        if (i == warmup && !Arrays.equals(source, target)) {
          throw new AssertionError(name + ": bytes read back over TLS differ");
        }
        if (measured) {
          t[4].add(t6 - t5);
          t[5].add(t7 - t6);
        }
      }
      for (SpongeTask each : tlsTask == null ? List.of(task) : List.of(task, tlsTask)) {
        if (each.stats().chunksWritten(TierKind.REMOTE) != warmup + iterations) {
          throw new AssertionError(name + ": not every spill went to a server: " + each.stats());
        }
      }
    }
    return t;
  }

  /**
   * 8 tasks x loadGib GiB through 2 capped server processes (with TLS on or off), beside the same
   * over raw sockets; returns the seconds through the servers.
   */
  private double load(boolean tls) throws Exception {
    String measure = tls ? "server-load-tls" : "server-load";
    int firstChild = children.size();
    int writers = 8;
    long perWriter = (long) loadGib << 30;
    long fileSize = 256L << 20;
    List<String> endpoints = new ArrayList<>();
    List<Integer> metricsPorts = new ArrayList<>();
    for (String node : List.of(measure + "-a", measure + "-b")) {
      int metricsPort = freePort();
      List<String> args =
          new ArrayList<>(serverArgs(node, (writers / 2 * fileSize + 64 * MIB) + "", tls));
      args.add("-Dsponge.server.metrics.port=" + metricsPort);
      endpoints.add(
          startChild(ServerMain.class, args, "-Xmx256m", "-XX:MaxDirectMemorySize=128m")
              .split(" ")[1]);
      metricsPorts.add(metricsPort);
    }
    // The raw peer keeps each connection's file as the servers do (a store of a file's size).
    int rawPort =
        Integer.parseInt(
            startChild(
                    RawSocketServer.class,
                    List.of(),
                    "-Xmx256m",
                    "-XX:MaxDirectMemorySize=" + (writers * fileSize + 256L * MIB))
                .split(" ")[1]);
    BenchReport.info(
        "%s: %d writers x %d GiB (files of %d MiB written, read back, verified, deleted), after"
            + " %d untimed files per writer each way (each by a task or connection of its own)",
        measure, writers, loadGib, fileSize >> 20, loadWarmupFiles);

    // Both sides move the same pre-generated bytes and compute the same CRC32C over everything
    // written and read, so the comparison is about the path, not about making data.
    byte[] data = new byte[64 * MIB];
    new SplittableRandom(7).nextBytes(data);
    long warmup = loadWarmupFiles * fileSize;
    rawLoad(writers, warmup, fileSize, fileSize, rawPort, data, true);
    Map<String, Long> rawPids =
        Map.of(
            "bench", ProcessHandle.current().pid(), "raw-peer", children.get(firstChild + 2).pid());
    CpuWindow rawCpu = cpuWindow(rawPids);
    long rawStart = System.nanoTime();
    rawLoad(writers, perWriter, fileSize, perWriter, rawPort, data, false);
    double rawSeconds = (System.nanoTime() - rawStart) / 1e9;
    cpuReport("raw sockets", rawCpu);
    CpuWindow copyCpu = cpuWindow(rawPids);
    long copyStart = System.nanoTime();
    rawLoad(writers, perWriter, fileSize, perWriter, rawPort, data, true);
    double copySeconds = (System.nanoTime() - copyStart) / 1e9;
    cpuReport("raw sockets plus one copy", copyCpu);

    double[] peaks = new double[2];
    Thread sampler =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                for (int port : metricsPorts) {
                  try {
                    String metrics = Scrape.metrics(port);
                    synchronized (peaks) {
                      peaks[0] =
                          Math.max(
                              peaks[0],
                              Scrape.value(metrics, "jvm_memory_used_bytes{area=\"heap\"}"));
                      peaks[1] =
                          Math.max(
                              peaks[1],
                              Scrape.value(metrics, "jvm_buffer_pool_used_bytes{pool=\"direct\"}"));
                    }
                  } catch (IOException e) {
                    // a sample missed; the next one counts
                  }
                }
                try {
                  Thread.sleep(200);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "server-memory-sampler");
    sampler.setDaemon(true);
    sampler.start();
    spongeLoad(writers, warmup, fileSize, fileSize, endpoints, tls, data);
    Map<String, Double> requestsBefore = requests(metricsPorts);
    CpuWindow cpu =
        cpuWindow(
            Map.of(
                "bench",
                ProcessHandle.current().pid(),
                "server-a",
                children.get(firstChild).pid(),
                "server-b",
                children.get(firstChild + 1).pid()));
    long start = System.nanoTime();
    blockedWrite.reset();
    blockedRead.reset();
    long verified = spongeLoad(writers, perWriter, fileSize, perWriter, endpoints, tls, data);
    double seconds = (System.nanoTime() - start) / 1e9;
    cpuReport("ours", cpu);
    BenchReport.info(
        "%s: the writers waited %.1f s on their files' writes and %.1f s on their reads (summed)",
        measure, blockedWrite.sum() / 1e9, blockedRead.sum() / 1e9);
    Map<String, Double> requestsAfter = requests(metricsPorts);
    long chunks = 2 * writers * perWriter / MIB; // each 1 MiB chunk written once and read once
    StringBuilder perChunk = new StringBuilder();
    requestsAfter.forEach(
        (op, count) ->
            perChunk.append(
                String.format(
                    Locale.ROOT,
                    " %s %.3f",
                    op,
                    (count - requestsBefore.getOrDefault(op, 0.0)) / (chunks / 2.0))));
    BenchReport.info("%s: requests per 1 MiB chunk written and read back:%s", measure, perChunk);
    sampler.interrupt();
    sampler.join();
    double heapMax;
    double directMax;
    synchronized (peaks) {
      heapMax = peaks[0];
      directMax = peaks[1];
    }
    double total = 2.0 * writers * perWriter;
    BenchReport.info(
        "%s: %.1f GiB verified; ours %.1f s (%.0f MB/s), raw sockets %.1f s (%.0f MB/s), raw"
            + " sockets plus one copy of each block read %.1f s (%.0f MB/s); peak server heap %.0f"
            + " MiB (cap 256), direct %.0f MiB (cap 128), sampled every 200 ms",
        measure,
        verified / (double) (1L << 30),
        seconds,
        total / seconds / 1e6,
        rawSeconds,
        total / rawSeconds / 1e6,
        copySeconds,
        total / copySeconds / 1e6,
        heapMax / MIB,
        directMax / MIB);
    BenchReport.bench(
        measure,
        seconds / copySeconds,
        String.format(
            Locale.ROOT,
            "ours_s=%.1f raw_copy_s=%.1f raw_socket_s=%.1f bare_ratio=%.3f writers=%d"
                + " gib_per_writer=%d server_heap_mib=%.0f server_direct_mib=%.0f",
            seconds,
            copySeconds,
            rawSeconds,
            seconds / rawSeconds,
            writers,
            loadGib,
            heapMax / MIB,
            directMax / MIB));
    BenchReport.bench(
        measure + "-bare",
        seconds / rawSeconds,
        String.format(Locale.ROOT, "ours_s=%.1f raw_socket_s=%.1f", seconds, rawSeconds));
    for (Process child : children.subList(firstChild, children.size())) {
      child.destroy(); // this run's servers and raw peer: the next run has the cores to itself
      child.waitFor();
    }
    return seconds;
  }

  private static CpuWindow cpuWindow(Map<String, Long> pids) {
    return CpuWindow.available() ? new CpuWindow(pids) : null;
  }

  private static void cpuReport(String what, CpuWindow window) {
    if (window == null) {
      BenchReport.info("cpu (%s): no /proc here", what);
      return;
    }
    BenchReport.info("cpu in the timed window of %s:", what);
    for (String line : window.report()) {
      BenchReport.info("  %s", line);
    }
  }

  /** The servers' requests so far by opcode, summed over {@code metricsPorts}. */
  private static Map<String, Double> requests(List<Integer> metricsPorts) throws IOException {
    Map<String, Double> counts = new java.util.TreeMap<>();
    for (int port : metricsPorts) {
      for (String line : Scrape.metrics(port).split("\n")) {
        if (line.startsWith("sponge_server_requests_total{")) {
          String labels = line.substring(line.indexOf('{') + 1, line.indexOf('}'));
          counts.merge(
              labels, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum);
        }
      }
    }
    return counts;
  }

  /**
   * {@code writers} tasks, each spilling {@code perWriter} bytes as files of {@code fileSize} to
   * the servers at {@code endpoints}, reading each back and checking it, in task sessions of {@code
   * perSession} bytes (a new task, with new connections, for each); returns the bytes read.
   */
  private long spongeLoad(
      int writers,
      long perWriter,
      long fileSize,
      long perSession,
      List<String> endpoints,
      boolean tls,
      byte[] data)
      throws Exception {
    return runWriters(
        writers,
        w -> {
          Configuration conf = clientConf(endpoints.get(w % 2) + "," + endpoints.get((w + 1) % 2));
          if (tls) {
            ca.client(conf);
          }
          long bytes = 0;
          byte[] block = new byte[MIB];
          for (long session = 0; session < perWriter; session += perSession) {
            try (SpongeTask task = SpongeTask.open(conf, "attempt_load_" + w + "_" + session)) {
              for (long done = 0; done < perSession; done += fileSize) {
                SpongeFile file = task.create("load-" + done);
                java.util.zip.CRC32C written = new java.util.zip.CRC32C();
                try (OutputStream out = file.output()) {
                  for (long at = 0; at < fileSize; at += MIB) {
                    int offset = block(w, session + done + at);
                    out.write(data, offset, MIB);
                    written.update(data, offset, MIB); // after the copy, as the raw writers do
                  }
                }
                java.util.zip.CRC32C read = new java.util.zip.CRC32C();
                try (SpongeInputStream in = file.input()) {
                  int n;
                  while ((n = in.read(block)) > 0) {
                    read.update(block, 0, n);
                    bytes += n;
                  }
                }
                if (written.getValue() != read.getValue()) {
                  throw new AssertionError(
                      "writer " + w + ": file " + (session + done) + " read back wrong");
                }
                if (task.stats().bytesWritten(TierKind.REMOTE) != done + fileSize) {
                  throw new AssertionError(
                      "writer " + w + " spilled outside the servers: " + task.stats());
                }
                file.delete();
              }
              blockedWrite.add(task.stats().blockedWriteNanos());
              blockedRead.add(task.stats().blockedReadNanos());
            }
          }
          return bytes;
        });
  }

  /**
   * The same as {@link #spongeLoad} over raw sockets to the peer at {@code rawPort}, a new
   * connection for each session. With {@code copy} each block read is copied into a heap array
   * before its checksum, as a task's {@code SpongeInputStream} hands its reader the bytes: raw
   * sockets plus that one memory copy; without it the checksum reads the socket's buffer itself.
   */
  private static void rawLoad(
      int writers,
      long perWriter,
      long fileSize,
      long perSession,
      int rawPort,
      byte[] data,
      boolean copy)
      throws Exception {
    runWriters(
        writers,
        w -> {
          ByteBuffer direct = ByteBuffer.allocateDirect(MIB);
          byte[] block = new byte[MIB];
          java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
          for (long session = 0; session < perWriter; session += perSession) {
            try (RawSocketClient raw = new RawSocketClient(rawPort)) {
              raw.store((int) fileSize);
              for (long done = session; done < session + perSession; done += fileSize) {
                for (long at = 0; at < fileSize; at += MIB) {
                  direct.clear();
                  direct.put(data, block(w, done + at), MIB).flip();
                  crc.update(direct.duplicate());
                  raw.write(direct);
                }
                for (long at = 0; at < fileSize; at += MIB) {
                  direct.clear();
                  raw.read(direct);
                  direct.flip();
                  if (copy) {
                    direct.get(block);
                    crc.update(block, 0, MIB);
                  } else {
                    crc.update(direct);
                  }
                }
              }
            }
          }
          return perWriter;
        });
  }

  /** Offset in the pre-generated data of writer {@code w}'s block at byte {@code at}. */
  private static int block(int w, long at) {
    return (int) (((at >> 20) * 7 + w * 13) % 64) * MIB;
  }

  private interface Writer {
    long run(int writer) throws Exception;
  }

  private static long runWriters(int writers, Writer body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Long>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        results.add(pool.submit(() -> body.run(writer)));
      }
      long total = 0;
      for (Future<Long> result : results) {
        total += result.get();
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  private Configuration serverConf(String node, String poolSize, boolean tls) throws IOException {
    Configuration conf = new Configuration(false);
    for (String arg : serverArgs(node, poolSize, tls)) {
      int eq = arg.indexOf('=');
      conf.set(arg.substring(2, eq), arg.substring(eq + 1));
    }
    return conf;
  }

  private List<String> serverArgs(String node, String poolSize, boolean tls) throws IOException {
    Path pool = tempDir("serverbench-" + node);
    int port = freePort();
    List<String> args = new ArrayList<>();
    if (tls) {
      for (Map.Entry<String, String> entry :
          ca.daemon(new Configuration(false), ca.keystore(node))) {
        args.add("-D" + entry.getKey() + "=" + entry.getValue());
      }
    }
    args.addAll(
        List.of(
            "-Dsponge.node.id=" + node,
            "-Dsponge.server.bind.host=127.0.0.1",
            "-Dsponge.server.port=" + port,
            "-Dsponge.server.address=127.0.0.1:" + port,
            "-Dsponge.server.metrics.port=-1",
            "-Dsponge.auth.none=true",
            "-Dsponge.pool.dir=" + pool,
            "-Dsponge.pool.size=" + poolSize));
    return args;
  }

  private Configuration clientConf(String servers) {
    if (taskPoolDir == null) {
      taskPoolDir = tempDir("serverbench-tasks");
    }
    Configuration conf = new Configuration(false);
    conf.set("sponge.tiers", "remote");
    conf.set("sponge.remote.servers", servers);
    conf.set("sponge.node.id", "bench-client");
    // The tasks' process lease goes there, and is deleted with it (not left in /dev/shm).
    conf.set("sponge.pool.dir", taskPoolDir.toString());
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("bench.task.")) {
        conf.set(name.substring("bench.task.".length()), System.getProperty(name));
      }
    }
    return conf;
  }

  /** Starts a main class in a child JVM on this classpath and returns its READY line. */
  private String startChild(Class<?> main, List<String> args, String... jvmArgs)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmArgs));
    String extra = System.getProperty("bench.child.jvm", "");
    if (!extra.isBlank()) {
      command.addAll(List.of(extra.trim().split(" +")));
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    children.add(process);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("READY")) {
        Thread drain = new Thread(() -> drain(out));
        drain.setDaemon(true);
        drain.start();
        return line;
      }
    }
    throw new IOException(main.getSimpleName() + " exited before it was ready");
  }

  private static void drain(BufferedReader out) {
    try {
      while (out.readLine() != null) {
        // keep the child's pipe from filling up
      }
    } catch (IOException e) {
      // child ended
    }
  }

  private Path tempDir(String prefix) {
    try {
      Path shm = Path.of("/dev/shm");
      Path dir = Files.createTempDirectory(Files.isDirectory(shm) ? shm : Path.of("/tmp"), prefix);
      dirs.add(dir);
      return dir;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int freePort() {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void cleanUp() throws IOException {
    for (Process child : children) {
      child.destroyForcibly();
    }
    for (Path dir : dirs) {
      FileUtils.deleteDirectory(dir.toFile());
    }
  }
}
