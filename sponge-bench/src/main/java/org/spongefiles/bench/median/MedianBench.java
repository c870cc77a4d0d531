package org.spongefiles.bench.median;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.spongefiles.bench.Contention;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.workloads.BenchReport;
import org.spongefiles.workloads.median.MedianRun;
import org.spongefiles.workloads.median.MedianShuffles;

/**
 * The SpongeFiles paper's median job (§4.2): one reducer finds the median of N numbers whose reduce
 * input is several times the reduce heap, with Hadoop's merger and with ours, each in a fresh JVM
 * running the job in LocalJobRunner (one map per input file), in the same run, under each load of
 * {@link Contention}: quiet, a background disk writer, the writer plus memory pinned so the page
 * cache is small. Ours spills to the node's pool, then a sponge server's pool (a separate process:
 * on one machine its "remote" memory is this machine's), then local disk.
 *
 * <p>The runtime measured is the reduce phase (shuffle, merge and reduce, from the shuffle's start
 * to the reducer's end), which is what the merger changes; the whole job's time is reported too,
 * but on one machine its serial map phase, identical for both, dilutes the difference.
 *
 * <p>Properties: {@code bench.median.numbers} (100,000,000), {@code bench.median.files} (16, one
 * map output each), {@code bench.median.reduce.heap} (512m, the heap the reduce-side merger sizes
 * its memory from), {@code bench.median.jvm} (options of each run's JVM, "-Xmx1200m
 * -XX:MaxDirectMemorySize=256m"), {@code bench.median.sort.mb} (300), {@code bench.median.pool}
 * (1g), {@code bench.median.remote} (1g; 0 runs no sponge server), {@code bench.median.conditions}
 * (quiet,disk,contention), {@code bench.median.dir} (java.io.tmpdir/ median-bench; the input is
 * kept there for the next run).
 */
public final class MedianBench {
  private static final Map<String, Contention.Level> CONDITIONS = new LinkedHashMap<>();

  static {
    CONDITIONS.put("quiet", Contention.Level.QUIET);
    CONDITIONS.put("disk", Contention.Level.DISK);
    CONDITIONS.put("contention", Contention.Level.DISK_AND_MEMORY);
  }

  private final long numbers = Long.getLong("bench.median.numbers", 100_000_000L);
  private final int files = Integer.getInteger("bench.median.files", 16);
  private final long reduceHeap =
      ByteSize.parse(System.getProperty("bench.median.reduce.heap", "512m"));
  private final List<String> jvm =
      Arrays.asList(
          System.getProperty("bench.median.jvm", "-Xmx1200m -XX:MaxDirectMemorySize=256m")
              .trim()
              .split("\\s+"));
  private final int sortMb = Integer.getInteger("bench.median.sort.mb", 300);
  private final long pool = ByteSize.parse(System.getProperty("bench.median.pool", "1g"));
  private final long remote = ByteSize.parse(System.getProperty("bench.median.remote", "1g"));
  private final List<String> conditions =
      Arrays.asList(
          System.getProperty("bench.median.conditions", "quiet,disk,contention").split(","));
  private final Path dir =
      Path.of(
          System.getProperty(
              "bench.median.dir",
              Path.of(System.getProperty("java.io.tmpdir"), "median-bench").toString()));
  private final Path log = dir.resolve("children.log");
  private boolean mismatch;
  private MedianData data;

  public static void main(String[] args) throws Exception {
    BenchReport.machine();
    MedianBench bench = new MedianBench();
    bench.run();
    if (bench.mismatch()) {
      System.exit(1);
    }
  }

  /** Reads the bench.median.* properties as they are now. */
  public MedianBench() {}

  /** The sizes this bench runs with, in words. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%,d numbers in %d map outputs, reduce heap %s, JVM %s, sort %d MB, pool %s, sponge"
            + " server %s",
        numbers,
        files,
        ByteSize.format(reduceHeap),
        String.join(" ", jvm),
        sortMb,
        ByteSize.format(pool),
        remote > 0 ? ByteSize.format(remote) : "none");
  }

  private void run() throws Exception {
    Files.createDirectories(dir);
    data = MedianData.prepare(dir, numbers, files, 20140622);
    BenchReport.info(
        "median job: %,d numbers in %d map outputs, one reducer with a %s heap for the merger"
            + " (mapreduce.reduce.memory.totalbytes); each run in a JVM with %s; ours: pool %s,"
            + " sponge server %s, then disk; children's stderr in %s",
        numbers,
        files,
        ByteSize.format(reduceHeap),
        jvm,
        ByteSize.format(pool),
        remote > 0 ? ByteSize.format(remote) : "none",
        log);
    MedianMeasure quiet = null;
    for (String condition : conditions) {
      MedianMeasure[] pair = measure(condition.trim(), data);
      if (condition.trim().equals("quiet")) {
        quiet = pair[1];
      }
    }
    MedianMeasure spilled = quiet;
    if (spilled != null) {
      BenchReport.bench(
          "median-spilled",
          spilled.spilledBytes() / (double) spilled.reduceInputBytes(),
          String.format(
              Locale.ROOT,
              "ours_spilled_bytes=%d reduce_input_bytes=%d (quiet run; target <= 1.05, paper"
                  + " 10.3 GB for a 10 GB input, Hadoop's 16.1 GB)",
              spilled.spilledBytes(),
              spilled.reduceInputBytes()));
    }
  }

  /** Stock, then ours, under one load; returns both. */
  private MedianMeasure[] measure(String condition, MedianData data) throws Exception {
    Contention.Level level = CONDITIONS.get(condition);
    if (level == null) {
      throw new IllegalArgumentException(
          "bench.median.conditions : "
              + condition
              + " (expected: one of "
              + CONDITIONS.keySet()
              + ")");
    }
    MedianMeasure[] pair;
    String load;
    try (Contention contention = Contention.start(level, dir.resolve("contention"))) {
      pair = pair(condition, data, MedianPlacement.HERE);
      load = contention.describe();
    }
    MedianMeasure stock = pair[0];
    MedianMeasure ours = pair[1];
    BenchReport.info("%s (%s):", condition, load);
    BenchReport.info("  stock: %s", stock.describe());
    BenchReport.info("  ours:  %s", ours.describe());
    BenchReport.bench(
        "median-" + condition,
        ours.reduceSeconds() / stock.reduceSeconds(),
        String.format(
            Locale.ROOT,
            "reduce_phase_s ours=%.1f stock=%.1f job_ratio=%.3f job_s ours=%.1f stock=%.1f"
                + " reducer_disk_bytes ours=%d stock=%d load=\"%s\"",
            ours.reduceSeconds(),
            stock.reduceSeconds(),
            ours.jobSeconds() / stock.jobSeconds(),
            ours.jobSeconds(),
            stock.jobSeconds(),
            ours.number("reduceDiskBytes"),
            stock.number("reduceDiskBytes"),
            load));
    return pair;
  }

  /**
   * Stock, then ours, once each, placed by {@code placement} (for the node sweep: on an emulated
   * node); the input is generated on first use. Returns both; a wrong median is reported and makes
   * {@link #mismatch()} true.
   */
  public MedianMeasure[] pair(String label, MedianPlacement placement) throws Exception {
    Files.createDirectories(dir);
    if (data == null) {
      data = MedianData.prepare(dir, numbers, files, 20140622);
    }
    return pair(label, data, placement);
  }

  private MedianMeasure[] pair(String label, MedianData data, MedianPlacement placement)
      throws Exception {
    Path shm = Path.of("/dev/shm");
    Path shmRoot = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : dir;
    // Fresh pools for every pair: memory they took earlier must not look free or taken now.
    Path poolDir = Files.createTempDirectory(shmRoot, "medianbench-pool-");
    Path lenderDir = Files.createTempDirectory(shmRoot, "medianbench-lender-");
    MedianProcesses.Server lender = remote > 0 ? startLender(lenderDir) : null;
    MedianMeasure stock;
    MedianMeasure ours;
    try {
      stock = runOnce(MedianRun.Merger.STOCK, label, data, null, null, placement);
      ours = runOnce(MedianRun.Merger.SPONGE, label, data, poolDir, lender, placement);
    } finally {
      if (lender != null) {
        lender.close();
      }
      deleteTree(poolDir);
      deleteTree(lenderDir);
    }
    String expected = data.median + " " + data.count;
    for (MedianMeasure m : new MedianMeasure[] {stock, ours}) {
      if (!m.succeeded() || !m.output().equals(expected)) {
        mismatch = true;
        BenchReport.info("MISMATCH in %s: output '%s', expected '%s'", label, m.output(), expected);
      }
    }
    return new MedianMeasure[] {stock, ours};
  }

  /** Whether a run's median was wrong or a run failed. */
  public boolean mismatch() {
    return mismatch;
  }

  private MedianMeasure runOnce(
      MedianRun.Merger merger,
      String condition,
      MedianData data,
      Path poolDir,
      MedianProcesses.Server lender,
      MedianPlacement placement)
      throws IOException, InterruptedException {
    Path work =
        placement
            .workRoot(dir)
            .resolve("work-" + condition + "-" + merger.name().toLowerCase(Locale.ROOT));
    Path spill =
        placement
            .spillRoot(dir)
            .resolve("spill-" + condition + "-" + merger.name().toLowerCase(Locale.ROOT));
    deleteTree(work);
    deleteTree(spill);
    List<String> args = new ArrayList<>();
    args.add(merger.name().toLowerCase(Locale.ROOT));
    args.add(data.input.toString());
    args.add(work.toString());
    args.add(Long.toString(data.count));
    args.add("mapreduce.reduce.memory.totalbytes=" + reduceHeap);
    args.add("mapreduce.task.io.sort.mb=" + sortMb);
    args.add("mapreduce.local.map.tasks.maximum=2");
    args.add(MedianShuffles.REDUCE_LOCAL_DIR + "=" + spill.resolve("reduce-local"));
    if (merger == MedianRun.Merger.SPONGE) {
      args.add("sponge.node.id=bench-node");
      args.add("sponge.server.address=");
      args.add("sponge.pool.dir=" + poolDir);
      args.add("sponge.pool.size=" + pool);
      args.add("sponge.pool.permissions=rw-------");
      args.add("sponge.disk.dirs=" + spill.resolve("sponge-disk"));
      args.add("sponge.tiers=" + (lender != null ? "pool,remote,disk" : "pool,disk"));
      if (lender != null) {
        args.add("sponge.remote.servers=" + lender.endpoint);
      }
    }
    Map<String, String> conf = new LinkedHashMap<>();
    for (String pair : args.subList(4, args.size())) {
      int eq = pair.indexOf('=');
      conf.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    try {
      placement.prepare(conf);
      List<String> placed = new ArrayList<>(args.subList(0, 4));
      conf.forEach((key, value) -> placed.add(key + "=" + value));
      return new MedianMeasure(MedianProcesses.run(jvm, placed, log, placement));
    } finally {
      deleteTree(work);
      deleteTree(spill);
    }
  }

  private MedianProcesses.Server startLender(Path poolDir)
      throws IOException, InterruptedException {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("sponge.node.id", "bench-lender");
    conf.put("sponge.server.bind.host", "127.0.0.1");
    int port = freePort();
    conf.put("sponge.server.port", Integer.toString(port));
    conf.put("sponge.server.address", "127.0.0.1:" + port);
    conf.put("sponge.server.metrics.port", "-1");
    conf.put("sponge.auth.none", "true");
    conf.put("sponge.pool.dir", poolDir.toString());
    conf.put("sponge.pool.size", Long.toString(remote));
    conf.put("sponge.pool.permissions", "rw-------");
    return MedianProcesses.Server.start(conf, log);
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
      for (Path path :
          (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(path);
      }
    }
  }
}
