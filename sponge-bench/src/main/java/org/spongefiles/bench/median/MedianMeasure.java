package org.spongefiles.bench.median;

import java.util.Locale;
import java.util.Map;

/**
 * The {@code RESULT} pairs of one {@link MedianRun} child, read back by {@link MedianBench} and the
 * node sweep.
 */
public final class MedianMeasure {
  private final Map<String, String> values;

  MedianMeasure(Map<String, String> values) {
    this.values = values;
  }

  public boolean succeeded() {
    return Boolean.parseBoolean(values.get("succeeded"));
  }

  public String output() {
    return values.getOrDefault("output", "");
  }

  public long number(String key) {
    String value = values.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }

  public double jobSeconds() {
    return number("jobNanos") / 1e9;
  }

  public double reduceSeconds() {
    return number("reduceNanos") / 1e9;
  }

  /** Bytes the reduce input had: what the reducer fetched. */
  public long reduceInputBytes() {
    return number("REDUCE_SHUFFLE_BYTES");
  }

  public long sponge(String name) {
    return number("SpongeFiles." + name);
  }

  /** Bytes the merger spilled: into SpongeFiles for ours, to local disk for Hadoop's. */
  public long spilledBytes() {
    long sponge = 0;
    for (String tier : new String[] {"POOL", "REMOTE", "DISK", "DFS"}) {
      sponge += sponge(tier + "_BYTES_WRITTEN");
    }
    return sponge > 0 ? sponge : number("reduceDiskBytes");
  }

  public String describe() {
    StringBuilder text =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "job %.1f s, reduce phase %.1f s, reducer wrote %,d bytes to block devices,"
                    + " reduce-side SPILLED_RECORDS %,d, %d Hadoop spill files seen",
                jobSeconds(),
                reduceSeconds(),
                number("reduceDiskBytes"),
                number("reduceSpilledRecords"),
                number("spillFiles")));
    if (sponge("FILES_CREATED") > 0) {
      text.append(
          String.format(
              Locale.ROOT,
              "; SpongeFiles: pool %,d, remote %,d, disk %,d bytes written; blocked writing %,d ms,"
                  + " reading %,d ms; %d spilled map outputs, %d in-memory merges, %d intermediate"
                  + " merges, %d segments in the final merge",
              sponge("POOL_BYTES_WRITTEN"),
              sponge("REMOTE_BYTES_WRITTEN"),
              sponge("DISK_BYTES_WRITTEN"),
              sponge("BLOCKED_WRITE_MILLIS"),
              sponge("BLOCKED_READ_MILLIS"),
              sponge("MAP_OUTPUTS_SPILLED"),
              sponge("IN_MEMORY_MERGES"),
              sponge("INTERMEDIATE_MERGES"),
              sponge("FINAL_MERGE_SEGMENTS")));
    }
    return text.toString();
  }
}
