package org.spongefiles.workloads.pig;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.mapred.Counters;
import org.apache.pig.ExecType;
import org.apache.pig.ExecTypeProvider;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.JobStats;
import org.apache.pig.tools.pigstats.PigProgressNotificationListener;
import org.apache.pig.tools.pigstats.PigStats;
import org.apache.pig.tools.pigstats.ScriptState;

/**
 * Runs the Pig queries in this JVM, a child with its own heap and {@code java.io.tmpdir} started by
 * {@link PigJvm}, and prints one line per query for the parent:
 *
 * <pre>
 * QUERY name=anchortext mode=local millis=5321 cpu_millis=9120 gc_millis=310 output=/.../out tmp_bytes=0 tmp_files=0 tmp_store=/dev/sda1 memory_cgroup=/ tmp_bag_files_left=0 POOL_BYTES_WRITTEN=...
 * </pre>
 *
 * with the CPU time the whole JVM spent during the query and the collectors' time, the SpongeFiles
 * counters of the query's jobs, the file store of java.io.tmpdir and the JVM's memory cgroup (where
 * the node sweep placed it), and {@code DONE} at the end. Arguments: {@code --mode
 * local|mapreduce|tez_local|tez --input DIR|URI --work DIR --queries anchortext,quantiles
 * --properties FILE [--pressure-ms N] [--tmp-writes] [--held-after-jobs] [--warm-ups N] [--repeats
 * N]}; with {@code --held-after-jobs}, a {@code HELD} line after each job ({@link JobEndHeld});
 * with {@code --warm-ups N}, each query runs N times unreported (its output deleted) before the run
 * it reports, so that the reported CPU is the query's work in a JVM whose compilers already
 * compiled it; with {@code --repeats N}, each query's reported run is repeated N times in a row,
 * each with a {@code QUERY} line and an output of its own ({@code out-<query>-<mode>}, then {@code
 * -2}, {@code -3}, ...).
 */
public final class PigWorkloadRunner {
  private static final String GROUP = "SpongeFiles";

  /**
   * HotSpot's threads of its own besides the collector's and the compilers', by their Linux names
   * (truncated to 15 characters).
   */
  private static final Set<String> VM_THREADS =
      Set.of(
          "VM Thread",
          "VM Periodic Tas",
          "Sweeper thread",
          "Service Thread",
          "Monitor Deflati",
          "Notification Th",
          "Signal Dispatch");

  private PigWorkloadRunner() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = parse(args);
    ExecType mode = ExecTypeProvider.fromString(require(options, "mode"));
    // A local directory, or a URI on the cluster's file system.
    String raw = require(options, "input");
    String input = raw.contains("://") ? raw : Path.of(raw).toUri().toString();
    Path work = Path.of(require(options, "work"));
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(Path.of(require(options, "properties")))) {
      properties.load(in);
    }
    long pressureMillis = Long.parseLong(options.getOrDefault("pressure-ms", "0"));
    int warmUps = Integer.parseInt(options.getOrDefault("warm-ups", "0"));
    int repeats = Integer.parseInt(options.getOrDefault("repeats", "1"));
    PigSpillPressure pressure = pressureMillis > 0 ? PigSpillPressure.start(pressureMillis) : null;
    try {
      for (String name : require(options, "queries").split(",")) {
        PigQuery query = PigQuery.valueOf(name.trim().toUpperCase(Locale.ROOT));
        for (int i = 0; i < warmUps; i++) {
          Path warmUp = work.resolve("warm-up-" + i);
          execute(new PigServer(mode, properties), query, input, warmUp.resolve("out"));
          PigFiles.deleteTree(warmUp);
        }
        for (int repeat = 1; repeat <= repeats; repeat++) {
          run(
              query,
              mode,
              input,
              work,
              repeat,
              properties,
              options.containsKey("tmp-writes"),
              options.containsKey("held-after-jobs"));
        }
      }
    } finally {
      if (pressure != null) {
        pressure.close();
      }
    }
    System.out.println("DONE");
    System.out.flush();
    // Pig leaves non-daemon threads behind; exiting runs the shutdown hooks that free SpongeFiles.
    System.exit(0);
  }

  private static void run(
      PigQuery query,
      ExecType mode,
      String input,
      Path work,
      int repeat,
      Properties properties,
      boolean measureTmp,
      boolean heldAfterJobs)
      throws IOException {
    String label =
        query.label()
            + "-"
            + mode.name().toLowerCase(Locale.ROOT)
            + (repeat > 1 ? "-" + repeat : "");
    Path output = work.resolve("out-" + label);
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    TmpWrites writes = measureTmp ? new TmpWrites(tmp, work.resolve(label + ".jfr")) : null;
    PigServer pig = new PigServer(mode, properties);
    long start = System.nanoTime();
    long cpuStart = cpuNanos();
    long gcStart = gcMillis();
    Map<String, Long> vmStart = vmThreadCpuMillis();
    List<ExecJob> jobs =
        heldAfterJobs
            ? execute(pig, query, input, output, new JobEndHeld())
            : execute(pig, query, input, output);
    long millis = (System.nanoTime() - start) / 1_000_000;
    long cpuMillis = (cpuNanos() - cpuStart) / 1_000_000;
    long gcMillis = gcMillis() - gcStart;
    Map<String, Long> vmEnd = vmThreadCpuMillis();
    StringBuilder line = new StringBuilder("QUERY");
    line.append(" name=").append(query.label());
    line.append(" mode=").append(mode.name().toLowerCase(Locale.ROOT));
    line.append(" millis=").append(millis);
    line.append(" cpu_millis=").append(cpuMillis);
    line.append(" gc_millis=").append(gcMillis);
    for (Map.Entry<String, Long> vm : vmEnd.entrySet()) {
      line.append(' ')
          .append(vm.getKey())
          .append('=')
          .append(vm.getValue() - vmStart.getOrDefault(vm.getKey(), 0L));
    }
    line.append(" output=").append(output);
    if (writes != null) {
      writes.stop();
      writes.close();
      line.append(" tmp_bytes=").append(writes.bytes());
      line.append(" tmp_files=").append(writes.files());
      line.append(" tmp_bag_bytes=").append(writes.bagBytes());
      line.append(" tmp_bag_files=").append(writes.bagFiles());
    }
    line.append(" tmp_store=").append(Files.getFileStore(tmp).name());
    String cgroup = memoryCgroup();
    if (!cgroup.isEmpty()) {
      line.append(" memory_cgroup=").append(cgroup);
    }
    for (Map.Entry<String, Long> io : blockIo().entrySet()) {
      line.append(' ').append(io.getKey()).append('=').append(io.getValue());
    }
    // Pig keeps its own scratch files there until exit; spill files of bags start with "pigbag".
    String[] left = tmp.toFile().list((dir, name) -> name.startsWith(TmpWrites.BAG_PREFIX));
    line.append(" tmp_bag_files_left=").append(left == null ? 0 : left.length);
    for (Map.Entry<String, Long> counter : counters(jobs).entrySet()) {
      line.append(' ').append(counter.getKey()).append('=').append(counter.getValue());
    }
    System.out.println(line);
    System.out.flush();
  }

  /**
   * Runs {@code query} on {@code pig} writing {@code output}, with {@code listeners} told of its
   * jobs, shuts {@code pig} down and returns the jobs, all completed (else it throws).
   */
  private static List<ExecJob> execute(
      PigServer pig,
      PigQuery query,
      String input,
      Path output,
      PigProgressNotificationListener... listeners)
      throws IOException {
    List<ExecJob> jobs;
    try {
      for (PigProgressNotificationListener listener : listeners) {
        ScriptState.get().registerListener(listener);
      }
      pig.setBatchOn();
      for (String statement : query.statements(input, output.toString())) {
        pig.registerQuery(statement);
      }
      jobs = pig.executeBatch();
    } finally {
      pig.shutdown();
    }
    for (ExecJob job : jobs) {
      if (job.getStatus() != ExecJob.JOB_STATUS.COMPLETED) {
        throw new IllegalStateException(
            query + " failed: " + failure(job.getStatistics()), job.getException());
      }
    }
    return jobs;
  }

  /** CPU time of every thread of this JVM so far (Pig's, Hadoop's, the collector's, the JIT's). */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Time the collectors report so far (pauses, and for G1's concurrent cycles their duration). */
  private static long gcMillis() {
    long millis = 0;
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      millis += Math.max(0, collector.getCollectionTime());
    }
    return millis;
  }

  /**
   * CPU time of the JVM's own threads so far, by what they do, from Linux's {@code
   * /proc/self/task/<tid>/stat} (clock ticks, 10 ms): {@code cpu_gc_millis} (the collector's
   * workers, concurrent and refinement threads), {@code cpu_jit_millis} (the compilers), {@code
   * cpu_vm_millis} (the JVM's other threads of its own: its VM thread, which runs the safepoint
   * operations, the code cache sweeper, the service and periodic-task threads). Empty elsewhere.
   * The rest of {@code cpu_millis} is the Java threads'.
   */
  private static Map<String, Long> vmThreadCpuMillis() throws IOException {
    Map<String, Long> cpu = new LinkedHashMap<>();
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return cpu;
    }
    cpu.put("cpu_gc_millis", 0L);
    cpu.put("cpu_jit_millis", 0L);
    cpu.put("cpu_vm_millis", 0L);
    List<Path> threads;
    try (Stream<Path> list = Files.list(tasks)) {
      threads = list.collect(Collectors.toList());
    }
    for (Path thread : threads) {
      String name;
      String stat;
      try {
        name = Files.readString(thread.resolve("comm")).trim();
        stat = Files.readString(thread.resolve("stat"));
      } catch (IOException ended) {
        continue;
      }
      String kind = vmThreadKind(name);
      if (kind != null) {
        // Fields after the parenthesized name: state is the 3rd, utime the 14th, stime the 15th.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        cpu.merge(kind, ticks * 10, Long::sum);
      }
    }
    return cpu;
  }

  /** Which of the JVM's own threads {@code name} (a thread's comm, at most 15 characters) is. */
  static String vmThreadKind(String name) {
    if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
      return "cpu_gc_millis";
    }
    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
      return "cpu_jit_millis";
    }
    return VM_THREADS.contains(name) ? "cpu_vm_millis" : null;
  }

  /**
   * What this JVM has made the kernel read from and write to block devices so far (Linux {@code
   * /proc/self/io}; written bytes are counted when pages are dirtied, cancelled ones belonged to
   * files deleted before they were written back). Empty elsewhere.
   */
  private static Map<String, Long> blockIo() throws IOException {
    Map<String, Long> io = new LinkedHashMap<>();
    Path proc = Path.of("/proc/self/io");
    if (Files.isReadable(proc)) {
      for (String entry : Files.readAllLines(proc)) {
        String[] parts = entry.split(":\\s*");
        if (parts.length == 2
            && (parts[0].equals("read_bytes")
                || parts[0].equals("write_bytes")
                || parts[0].equals("cancelled_write_bytes"))) {
          io.put("block_" + parts[0], Long.parseLong(parts[1].trim()));
        }
      }
    }
    return io;
  }

  /** This JVM's cgroup v1 memory group ({@code /proc/self/cgroup}); empty where there is none. */
  private static String memoryCgroup() throws IOException {
    Path proc = Path.of("/proc/self/cgroup");
    if (Files.isReadable(proc)) {
      for (String entry : Files.readAllLines(proc)) {
        String[] parts = entry.split(":", 3);
        if (parts.length == 3 && parts[1].equals("memory")) {
          return parts[2];
        }
      }
    }
    return "";
  }

  /** Why Pig says the query failed, with each failed job's message. */
  private static String failure(PigStats stats) {
    StringBuilder why = new StringBuilder(String.valueOf(stats.getErrorMessage()));
    for (JobStats job : stats.getJobGraph()) {
      if (!job.isSuccessful()) {
        why.append("; job ").append(job.getJobId()).append(": ").append(job.getErrorMessage());
      }
    }
    return why.toString();
  }

  /** The SpongeFiles counters and Pig's spill counters, summed over the query's jobs. */
  private static Map<String, Long> counters(List<ExecJob> jobs) {
    Map<String, Long> sums = new LinkedHashMap<>();
    PigStats stats = jobs.isEmpty() ? PigStats.get() : jobs.get(0).getStatistics();
    for (JobStats job : stats.getJobGraph()) {
      Counters counters = job.getHadoopCounters();
      if (counters == null) {
        continue;
      }
      for (Counters.Group group : counters) {
        if (group.getName().equals(GROUP) || group.getName().equals("org.apache.pig.PigCounters")) {
          for (Counters.Counter counter : group) {
            sums.merge(counter.getName(), counter.getValue(), Long::sum);
          }
        }
      }
    }
    return sums;
  }

  private static String require(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return value;
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    List<String> rest = new ArrayList<>(List.of(args));
    while (!rest.isEmpty()) {
      String flag = rest.remove(0);
      if (!flag.startsWith("--")) {
        throw new IllegalArgumentException("Unexpected argument " + flag);
      }
      boolean valued = !rest.isEmpty() && !rest.get(0).startsWith("--");
      options.put(flag.substring(2), valued ? rest.remove(0) : "");
    }
    return options;
  }
}
