package org.spongefiles.merger;

/**
 * The merger's counters in the {@value #GROUP} group of a job, beside sponge-core's bytes and
 * chunks per tier ({@code POOL_BYTES_WRITTEN}, {@code REMOTE_BYTES_READ}, {@code DISK_...}, {@code
 * DFS_...}), {@code BLOCKED_WRITE_MILLIS}, {@code BLOCKED_READ_MILLIS}, {@code FILES_CREATED},
 * {@code OVERFLOW_CHUNKS}, and {@code REMOTE_UNAVAILABLE} with {@code REMOTE_UNAVAILABLE_<REASON>}
 * (tasks that could not reach remote memory, and why: docs/operations.md). Read them with {@code
 * job.getCounters().getGroup(MergerCounter.GROUP)}.
 */
public enum MergerCounter {
  /** Map outputs fetched into the reduce's heap (they fit the shuffle memory). */
  MAP_OUTPUTS_IN_MEMORY,
  /** Map outputs too large for the shuffle memory, streamed straight into SpongeFiles. */
  MAP_OUTPUTS_SPILLED,
  /** Merges of in-memory map outputs (with the combiner, if any) into a SpongeFile. */
  IN_MEMORY_MERGES,
  /** Merges of the in-memory outputs the reduce may not keep, at the end of the shuffle. */
  MEMORY_FLUSHES,
  /** Merges of SpongeFiles done only because their read buffers would exceed the bound. */
  INTERMEDIATE_MERGES,
  /** Segments read by the final merge that feeds the reducer. */
  FINAL_MERGE_SEGMENTS,
  /** Reduce tasks that could not use SpongeFiles and ran Hadoop's merger instead. */
  FALLBACK_TO_HADOOP_MERGER;

  /** Counter group of SpongeFiles in Hadoop jobs. */
  public static final String GROUP = "SpongeFiles";
}
