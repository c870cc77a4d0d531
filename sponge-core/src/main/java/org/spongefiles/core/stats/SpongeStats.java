package org.spongefiles.core.stats;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.tier.TierWrites;

/**
 * Where a task's spilled bytes went and how long the task waited for them: bytes and chunks written
 * and read per tier, and the nanoseconds the caller was blocked writing (waiting for a write
 * buffer, for the pool lock, or for chunks still being written behind at close) and reading
 * (waiting for a chunk to arrive). Thread-safe; the numbers only grow.
 */
public final class SpongeStats implements TierWrites {
  private final Map<TierKind, LongAdder[]> tiers = new EnumMap<>(TierKind.class);
  private final LongAdder blockedWriteNanos = new LongAdder();
  private final LongAdder blockedReadNanos = new LongAdder();
  private final LongAdder filesCreated = new LongAdder();
  private final LongAdder overflowChunks = new LongAdder();
  private final Map<String, LongAdder> remoteUnavailable = new ConcurrentHashMap<>();

  private static final int BYTES_WRITTEN = 0;
  private static final int CHUNKS_WRITTEN = 1;
  private static final int BYTES_READ = 2;
  private static final int CHUNKS_READ = 3;

  public SpongeStats() {
    for (TierKind tier : TierKind.values()) {
      tiers.put(
          tier,
          new LongAdder[] {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()});
    }
  }

  @Override
  public void recordWrite(TierKind tier, long bytes) {
    LongAdder[] counters = tiers.get(tier);
    counters[BYTES_WRITTEN].add(bytes);
    counters[CHUNKS_WRITTEN].increment();
  }

  public void recordRead(TierKind tier, long bytes, int chunksEntered) {
    LongAdder[] counters = tiers.get(tier);
    counters[BYTES_READ].add(bytes);
    counters[CHUNKS_READ].add(chunksEntered);
  }

  public void addBlockedWrite(long nanos) {
    blockedWriteNanos.add(nanos);
  }

  public void addBlockedRead(long nanos) {
    blockedReadNanos.add(nanos);
  }

  public void fileCreated() {
    filesCreated.increment();
  }

  /** A writer stored a chunk on the local disk itself while the remote tier's queue was full. */
  public void chunkOverflowed() {
    overflowChunks.increment();
  }

  /**
   * The task could not reach remote memory, for {@code reason} (a name such as {@code NO_SECRET}):
   * counted as {@code REMOTE_UNAVAILABLE} and {@code REMOTE_UNAVAILABLE_<reason>}.
   */
  public void remoteUnavailable(String reason) {
    remoteUnavailable.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  /** How often the task reported remote memory unavailable (at most once per task). */
  public long remoteUnavailable() {
    long total = 0;
    for (LongAdder count : remoteUnavailable.values()) {
      total += count.sum();
    }
    return total;
  }

  public long overflowChunks() {
    return overflowChunks.sum();
  }

  public long bytesWritten(TierKind tier) {
    return tiers.get(tier)[BYTES_WRITTEN].sum();
  }

  public long chunksWritten(TierKind tier) {
    return tiers.get(tier)[CHUNKS_WRITTEN].sum();
  }

  public long bytesRead(TierKind tier) {
    return tiers.get(tier)[BYTES_READ].sum();
  }

  public long chunksRead(TierKind tier) {
    return tiers.get(tier)[CHUNKS_READ].sum();
  }

  public long bytesWritten() {
    long total = 0;
    for (TierKind tier : TierKind.values()) {
      total += bytesWritten(tier);
    }
    return total;
  }

  public long bytesRead() {
    long total = 0;
    for (TierKind tier : TierKind.values()) {
      total += bytesRead(tier);
    }
    return total;
  }

  public long blockedWriteNanos() {
    return blockedWriteNanos.sum();
  }

  public long blockedReadNanos() {
    return blockedReadNanos.sum();
  }

  public long filesCreated() {
    return filesCreated.sum();
  }

  /**
   * The statistics as named counters ({@code POOL_BYTES_WRITTEN}, {@code BLOCKED_WRITE_MILLIS},
   * ..., {@code REMOTE_UNAVAILABLE} and, for the reason a task had no remote memory, {@code
   * REMOTE_UNAVAILABLE_<REASON>}), the names used in the Hadoop and Pig counter groups.
   */
  public Map<String, Long> asCounters() {
    Map<String, Long> counters = new LinkedHashMap<>();
    for (TierKind tier : TierKind.values()) {
      String prefix = tier.name() + "_";
      counters.put(prefix + "BYTES_WRITTEN", bytesWritten(tier));
      counters.put(prefix + "CHUNKS_WRITTEN", chunksWritten(tier));
      counters.put(prefix + "BYTES_READ", bytesRead(tier));
      counters.put(prefix + "CHUNKS_READ", chunksRead(tier));
    }
    counters.put("BLOCKED_WRITE_MILLIS", blockedWriteNanos() / 1_000_000);
    counters.put("BLOCKED_READ_MILLIS", blockedReadNanos() / 1_000_000);
    counters.put("FILES_CREATED", filesCreated());
    counters.put("OVERFLOW_CHUNKS", overflowChunks());
    counters.put("REMOTE_UNAVAILABLE", remoteUnavailable());
    new TreeMap<>(remoteUnavailable)
        .forEach((reason, count) -> counters.put("REMOTE_UNAVAILABLE_" + reason, count.sum()));
    return counters;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (TierKind tier : TierKind.values()) {
      if (chunksWritten(tier) > 0 || bytesRead(tier) > 0) {
        text.append(
            String.format(
                "%-6s wrote %,d bytes in %,d chunks, read %,d bytes (%,d chunks)%n",
                tier.label(),
                bytesWritten(tier),
                chunksWritten(tier),
                bytesRead(tier),
                chunksRead(tier)));
      }
    }
    text.append(
        String.format(
            "blocked writing %.1f ms, reading %.1f ms; %,d chunks overflowed to disk",
            blockedWriteNanos() / 1e6, blockedReadNanos() / 1e6, overflowChunks()));
    return text.toString();
  }
}
