package org.spongefiles.workloads.pig;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a child JVM reported for one query: time, CPU time, output, counters, bytes to
 * java.io.tmpdir.
 */
public final class QueryRun {
  private final Map<String, String> fields;

  private QueryRun(Map<String, String> fields) {
    this.fields = fields;
  }

  /** Parses a {@code QUERY k=v ...} line of {@link PigWorkloadRunner}. */
  static QueryRun parse(String line) {
    if (!line.startsWith("QUERY ")) {
      throw new IllegalArgumentException("Not a QUERY line: " + line);
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (String field : line.substring(6).trim().split(" ")) {
      int eq = field.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("Field without a value '" + field + "' in " + line);
      }
      fields.put(field.substring(0, eq), field.substring(eq + 1));
    }
    return new QueryRun(fields);
  }

  public String name() {
    return fields.get("name");
  }

  public long millis() {
    return Long.parseLong(fields.get("millis"));
  }

  /** CPU time of the whole child JVM during the query, every thread's. */
  public long cpuMillis() {
    return Long.parseLong(fields.get("cpu_millis"));
  }

  /** Time the child's collectors reported during the query. */
  public long gcMillis() {
    return Long.parseLong(fields.get("gc_millis"));
  }

  public Path output() {
    return Path.of(fields.get("output"));
  }

  /** Bytes written under java.io.tmpdir during the query; -1 when not measured. */
  public long tmpBytes() {
    return Long.parseLong(fields.getOrDefault("tmp_bytes", "-1"));
  }

  /** Files written under java.io.tmpdir during the query; -1 when not measured. */
  public int tmpFiles() {
    return Integer.parseInt(fields.getOrDefault("tmp_files", "-1"));
  }

  /**
   * Of {@link #tmpBytes()}, bytes written to Pig's bag spill files ({@code pigbag*}); -1 when not
   * measured.
   */
  public long tmpBagBytes() {
    return Long.parseLong(fields.getOrDefault("tmp_bag_bytes", "-1"));
  }

  /** Of {@link #tmpFiles()}, Pig's bag spill files; -1 when not measured. */
  public int tmpBagFiles() {
    return Integer.parseInt(fields.getOrDefault("tmp_bag_files", "-1"));
  }

  /** The file store (device) of the child's java.io.tmpdir, where stock Pig's bags spill. */
  public String tmpStore() {
    return fields.get("tmp_store");
  }

  /** The child's cgroup v1 memory group; empty where the host has none. */
  public String memoryCgroup() {
    return fields.getOrDefault("memory_cgroup", "");
  }

  /** Bag spill files ({@code pigbag*}) left in java.io.tmpdir right after the query. */
  public int tmpBagFilesLeft() {
    return Integer.parseInt(fields.get("tmp_bag_files_left"));
  }

  /**
   * Bytes the child JVM sent to block devices up to the end of the query, net of writes cancelled
   * by deleting the file first; -1 when the system does not say.
   */
  public long blockBytesWritten() {
    if (!fields.containsKey("block_write_bytes")) {
      return -1;
    }
    return Long.parseLong(fields.get("block_write_bytes"))
        - Long.parseLong(fields.getOrDefault("block_cancelled_write_bytes", "0"));
  }

  /** A counter of the SpongeFiles group (or Pig's spill counters); 0 when absent. */
  public long counter(String name) {
    return Long.parseLong(fields.getOrDefault(name, "0"));
  }

  /** Bytes written to SpongeFiles, over every tier. */
  public long spongeBytesWritten() {
    return counter("POOL_BYTES_WRITTEN")
        + counter("REMOTE_BYTES_WRITTEN")
        + counter("DISK_BYTES_WRITTEN")
        + counter("DFS_BYTES_WRITTEN");
  }

  @Override
  public String toString() {
    return fields.toString();
  }
}
