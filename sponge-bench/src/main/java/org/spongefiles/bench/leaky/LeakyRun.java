package org.spongefiles.bench.leaky;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.spongefiles.workloads.leaky.LeakyWorkload;

/** The outcome of one heap-limited child run of {@link LeakyBench}. */
final class LeakyRun {
  final LeakyWorkload workload;
  final String variant;
  final double ratio;
  final int heapMb;
  final String status;
  final long reduceMs;
  final long gcMs;
  final double oldPeakMb;
  final long outputRecords;
  final String digest;
  final double overflowMb;

  private LeakyRun(
      LeakyWorkload workload,
      String variant,
      double ratio,
      int heapMb,
      String status,
      Map<String, String> fields) {
    this.workload = workload;
    this.variant = variant;
    this.ratio = ratio;
    this.heapMb = heapMb;
    this.status = status;
    this.reduceMs = Long.parseLong(fields.getOrDefault("reduce_ms", "-1"));
    this.gcMs = Long.parseLong(fields.getOrDefault("gc_ms", "-1"));
    this.oldPeakMb = Double.parseDouble(fields.getOrDefault("old_peak_mb", "-1"));
    this.outputRecords = Long.parseLong(fields.getOrDefault("out", "-1"));
    this.digest = fields.getOrDefault("digest", "");
    this.overflowMb = Double.parseDouble(fields.getOrDefault("overflow_mb", "0"));
  }

  /** Parses the child's RESULT line; a child that printed none failed with {@code status}. */
  static LeakyRun of(
      LeakyWorkload workload,
      String variant,
      double ratio,
      int heapMb,
      String line,
      String status) {
    Map<String, String> fields = new HashMap<>();
    if (line != null) {
      for (String field : line.substring("RESULT ".length()).split(" ")) {
        int eq = field.indexOf('=');
        fields.put(field.substring(0, eq), field.substring(eq + 1));
      }
    }
    return new LeakyRun(
        workload, variant, ratio, heapMb, fields.getOrDefault("status", status), fields);
  }

  boolean ok() {
    return status.equals("ok");
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "%-8s %-17s dmr=%-5s heap=%4dMiB %-7s reduce=%7.2fs gc=%7.2fs old_peak=%6.1fMiB"
            + " overflow=%6.1fMiB out=%d",
        workload.name().toLowerCase(Locale.ROOT),
        variant,
        LeakyBench.format(ratio),
        heapMb,
        status,
        reduceMs / 1000.0,
        gcMs / 1000.0,
        oldPeakMb,
        overflowMb,
        outputRecords);
  }
}
