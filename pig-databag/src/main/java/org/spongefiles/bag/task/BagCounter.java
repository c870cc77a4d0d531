package org.spongefiles.bag.task;

/**
 * The bags' own counters in the {@value #GROUP} group of a Pig job, beside sponge-core's bytes and
 * chunks per tier ({@code POOL_BYTES_WRITTEN}, {@code DISK_BYTES_READ}, ...), {@code
 * BLOCKED_WRITE_MILLIS}, {@code BLOCKED_READ_MILLIS}, {@code FILES_CREATED} and {@code
 * OVERFLOW_CHUNKS}, which count every SpongeFile of the task's bags.
 */
public enum BagCounter {
  /** Spills of a bag into one new SpongeFile (a run), for any reason. */
  BAG_SPILLS,
  /** Spills a bag made itself on reaching sponge.pig.bag.memory of the heap. */
  BAG_SELF_SPILLS,
  /** Tuples written by those spills. */
  BAG_SPILLED_TUPLES,
  /** Spills that failed; the bag kept its tuples in memory (the task log says why). */
  BAG_SPILL_FAILURES,
  /** Runs written by merging other runs, when a sorted or distinct bag had too many to read. */
  BAG_RUN_MERGES;

  /** Counter group of SpongeFiles in Hadoop and Pig jobs (the hadoop-merger's group too). */
  public static final String GROUP = "SpongeFiles";
}
