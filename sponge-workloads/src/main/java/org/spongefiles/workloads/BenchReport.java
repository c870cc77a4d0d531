package org.spongefiles.workloads;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * How every benchmark reports: a {@code MACHINE} line first, then for each measure its baseline and
 * result from the same run, and one summary line {@code BENCH <measure> ratio=<x> <details>}.
 */
public final class BenchReport {
  private BenchReport() {}

  /** Prints the machine the numbers come from. */
  public static void machine() {
    Runtime runtime = Runtime.getRuntime();
    long memory = 0;
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      memory = ((com.sun.management.OperatingSystemMXBean) os).getTotalPhysicalMemorySize();
    }
    System.out.printf(
        Locale.ROOT,
        "MACHINE cores=%d memory=%.1fGiB jdk=%s os=%s-%s heap=%dMiB%n",
        runtime.availableProcessors(),
        memory / (double) (1L << 30),
        System.getProperty("java.version"),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        runtime.maxMemory() >> 20);
  }

  /** One summary line per measure. */
  public static void bench(String measure, double ratio, String details) {
    System.out.printf(Locale.ROOT, "BENCH %s ratio=%.3f %s%n", measure, ratio, details);
    System.out.flush();
  }

  /** A free-form result line, kept apart from the summary lines. */
  public static void info(String format, Object... args) {
    System.out.printf(Locale.ROOT, "  " + format + "%n", args);
    System.out.flush();
  }
}
