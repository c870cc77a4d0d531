package org.spongefiles.leaky;

import java.util.LinkedHashMap;
import java.util.Map;

/** What a {@link LeakyHashTable} holds and where its value bytes went, at one moment. */
public final class LeakyStats {
  private final long keys;
  private final long values;
  private final long valueBytes;
  private final long heapBytes;
  private final long peakHeapBytes;
  private final long overflowBytes;
  private final long overflowReadBytes;
  private final long overflowFiles;
  private final long spills;
  private final long failedSpills;
  private final Layout layout;

  LeakyStats(
      long keys,
      long values,
      long valueBytes,
      long heapBytes,
      long peakHeapBytes,
      long overflowBytes,
      long overflowReadBytes,
      long overflowFiles,
      long spills,
      long failedSpills,
      Layout layout) {
    this.keys = keys;
    this.values = values;
    this.valueBytes = valueBytes;
    this.heapBytes = heapBytes;
    this.peakHeapBytes = peakHeapBytes;
    this.overflowBytes = overflowBytes;
    this.overflowReadBytes = overflowReadBytes;
    this.overflowFiles = overflowFiles;
    this.spills = spills;
    this.failedSpills = failedSpills;
    this.layout = layout;
  }

  /** Distinct keys put since the table was created (over every {@code clear()}). */
  public long keys() {
    return keys;
  }

  /** Values put since the table was created. */
  public long values() {
    return values;
  }

  /** Serialized bytes of those values. */
  public long valueBytes() {
    return valueBytes;
  }

  /** Heap bytes the table holds now in value bytes and value indexes (keys not counted). */
  public long heapBytes() {
    return heapBytes;
  }

  /** The most {@link #heapBytes()} ever held. */
  public long peakHeapBytes() {
    return peakHeapBytes;
  }

  /** Bytes moved to SpongeFiles. */
  public long overflowBytes() {
    return overflowBytes;
  }

  /**
   * Bytes of value records (length prefix and value) read back from SpongeFiles: a group-by reads
   * its overflow once per iteration of a group; a join once per batch of probe records of a key.
   */
  public long overflowReadBytes() {
    return overflowReadBytes;
  }

  /** SpongeFiles written. */
  public long overflowFiles() {
    return overflowFiles;
  }

  /** Times the table moved bytes out because it passed its budget. */
  public long spills() {
    return spills;
  }

  /**
   * Times moving bytes out failed (every tier full or failing): the bytes stayed on the heap, and
   * the table waited for more growth before trying again.
   */
  public long failedSpills() {
    return failedSpills;
  }

  /** The layout in use (AUTO while undecided). */
  public Layout layout() {
    return layout;
  }

  /** As named counters: KEYS, VALUES, VALUE_BYTES, PEAK_HEAP_BYTES, OVERFLOW_BYTES, ... */
  public Map<String, Long> asCounters() {
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("KEYS", keys);
    counters.put("VALUES", values);
    counters.put("VALUE_BYTES", valueBytes);
    counters.put("PEAK_HEAP_BYTES", peakHeapBytes);
    counters.put("OVERFLOW_BYTES", overflowBytes);
    counters.put("OVERFLOW_READ_BYTES", overflowReadBytes);
    counters.put("OVERFLOW_FILES", overflowFiles);
    counters.put("SPILLS", spills);
    counters.put("FAILED_SPILLS", failedSpills);
    counters.put("LAYOUT_PER_KEY", layout == Layout.PER_KEY ? 1L : 0L);
    return counters;
  }

  @Override
  public String toString() {
    return String.format(
        "%,d keys, %,d values (%,d bytes), heap %,d (peak %,d), overflow %,d bytes in %,d files"
            + " (%,d read back)"
            + " after %,d spills (%,d failed), layout %s",
        keys,
        values,
        valueBytes,
        heapBytes,
        peakHeapBytes,
        overflowBytes,
        overflowFiles,
        overflowReadBytes,
        spills,
        failedSpills,
        layout);
  }
}
