package org.spongefiles.workloads.leaky;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.leaky.Layout;
import org.spongefiles.leaky.LeakyOptions;
import org.spongefiles.leaky.ValueBytes;
import org.spongefiles.leaky.mapreduce.LeakyCounters;

/**
 * One heap-limited reduce run, in its own JVM: {@code <workload> <variant> <input> <pool dir> <disk
 * dir>} with variant {@code baseline}, {@code leaky}, {@code leaky-reserialize} or {@code
 * leaky-<layout>} ({@code leaky-shared}, {@code leaky-per_key}, {@code leaky-auto}). Prints one
 * line {@code RESULT status=ok|oom reduce_ms=.. gc_ms=.. old_peak_mb=.. out=.. digest=..
 * overflow_mb=..}; exits 3 after an OutOfMemoryError.
 */
public final class LeakyBenchChild {
  private LeakyBenchChild() {}

  public static void main(String[] args) throws Exception {
    LeakyWorkload workload = LeakyWorkload.valueOf(args[0].toUpperCase(Locale.ROOT));
    String variant = args[1];
    Path input = Path.of(args[2]);
    Configuration conf = new Configuration(false);
    conf.set("sponge.pool.dir", args[3]);
    conf.set("sponge.pool.name", "leaky-bench");
    conf.set("sponge.pool.size", System.getProperty("bench.pool.size", "1g"));
    conf.set("sponge.disk.dirs", args[4]);
    conf.set("sponge.disk.reserve", "0");
    LeakyOptions.VALUE_BYTES.set(
        conf, variant.equals("leaky-reserialize") ? ValueBytes.RESERIALIZE : ValueBytes.RAW);
    for (Layout layout : Layout.values()) {
      if (variant.equals("leaky-" + layout.name().toLowerCase(Locale.ROOT))) {
        LeakyOptions.LAYOUT.set(conf, layout);
      }
    }

    long gcBefore = gcMillis();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
    LeakyReduceRunner runner = new LeakyReduceRunner();
    long start = System.nanoTime();
    String status = "ok";
    try {
      runner.run(
          conf,
          input,
          variant.equals("baseline") ? workload.baseline : workload.leaky,
          workload.keyClass,
          workload.valueClass);
    } catch (Throwable e) {
      // Reflection and Hadoop wrap errors: an OutOfMemoryError may arrive as a cause.
      if (!causedByOutOfMemory(e)) {
        throw e;
      }
      runner = null;
      status = "oom";
    }
    long reduceMillis = (System.nanoTime() - start) / 1_000_000;
    System.out.printf(
        Locale.ROOT,
        "RESULT status=%s reduce_ms=%d gc_ms=%d old_peak_mb=%.1f out=%d digest=%016x overflow_mb=%.1f%n",
        status,
        reduceMillis,
        gcMillis() - gcBefore,
        oldPeak() / 1048576.0,
        runner == null ? -1 : runner.outputRecords,
        runner == null ? 0 : runner.digest,
        runner == null
            ? 0
            : runner.counters.findCounter(LeakyCounters.GROUP, "OVERFLOW_BYTES").getValue()
                / 1048576.0);
    System.out.flush();
    System.exit(status.equals("ok") ? 0 : 3);
  }

  private static boolean causedByOutOfMemory(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError) {
        return true;
      }
    }
    return false;
  }

  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }

  /** Peak use of the old (tenured) generation since the run started. */
  private static long oldPeak() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      String name = pool.getName();
      if (pool.getType() == MemoryType.HEAP && (name.contains("Old") || name.contains("Tenured"))) {
        peak = Math.max(peak, pool.getPeakUsage().getUsed());
      }
    }
    return peak;
  }
}
