package org.spongefiles.core.tier;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ordered tiers of a task, nearest first. The chain alone decides where a chunk goes and counts
 * what each tier was given; the tiers store it. A tier with no room answers null and a failing tier
 * throws; either way the next tier is tried, and only when every tier declines does the chunk fail,
 * with each tier's report.
 *
 * <p>Which thread stores a chunk, and whether it bypasses the order, is {@link PlacementPolicy}'s
 * answer: when the pool is the first tier, the chain reserves the writer a pool chunk before the
 * writer fills its buffer ({@link #reserveInPlace}) and copies the full buffer in ({@link
 * #placeInPlace}), in the writer's thread; a chunk that overflows goes to the disk tier alone
 * ({@link #storeOverflow}); any other goes to {@link #store}, which tries the tiers in order.
 */
public final class TierChain implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TierChain.class);

  private final List<Tier> tiers;
  private final PoolTier pool;
  private final TierWrites stats;
  private final AtomicBoolean reserveFailureLogged = new AtomicBoolean();

  public TierChain(List<Tier> tiers, TierWrites stats) {
    this.tiers = List.copyOf(tiers);
    this.stats = stats;
    PoolTier found = null;
    for (Tier tier : tiers) {
      if (tier instanceof PoolTier) {
        found = (PoolTier) tier;
      }
    }
    this.pool = found;
  }

  /** The pool tier, or null when the task does not use the pool. */
  public PoolTier pool() {
    return pool;
  }

  public List<Tier> tiers() {
    return tiers;
  }

  /** The tier of kind {@code kind}, or null. */
  public Tier tier(TierKind kind) {
    for (Tier tier : tiers) {
      if (tier.kind() == kind) {
        return tier;
      }
    }
    return null;
  }

  /**
   * A pool chunk reserved for the next chunk the writer of {@code file} fills, or null: when the
   * pool is full, or when it failed (reported once per chain, then treated as full). Only for a
   * writer whose {@link PlacementPolicy#reservesInPlace} says so. The writer hands the chunk back
   * through {@link #placeInPlace} or {@link #releaseInPlace}.
   *
   * @throws IllegalStateException when the pool is not the first tier
   */
  public PoolStoredChunk reserveInPlace(FileKey file) {
    if (pool == null || tiers.get(0) != pool) {
      throw new IllegalStateException(
          "No chunk of "
              + file
              + " is filled in place: the pool is not the first tier ("
              + this
              + ")");
    }
    try {
      return pool.reserve();
    } catch (IOException e) {
      if (reserveFailureLogged.compareAndSet(false, true)) {
        LOG.warn("The pool could not give {} a chunk; using the next tier: {}", file, e.toString());
      } else {
        LOG.debug("The pool could not give {} a chunk: {}", file, e.toString());
      }
      return null;
    }
  }

  /**
   * Copies {@code data} (position to limit) into a chunk from {@link #reserveInPlace}; when that
   * fails the chunk is freed.
   */
  public StoredChunk placeInPlace(PoolStoredChunk chunk, ByteBuffer data) throws IOException {
    int length = data.remaining();
    pool.fill(chunk, data);
    stats.recordWrite(TierKind.POOL, length);
    return chunk;
  }

  /** Frees a chunk from {@link #reserveInPlace} that the writer did not use. */
  public void releaseInPlace(PoolStoredChunk chunk) throws IOException {
    pool.release(chunk);
  }

  /**
   * Stores {@code data} (position to limit) as chunk {@code index} of {@code file} in the nearest
   * tier that takes it.
   *
   * @throws AllTiersFullException when no tier takes it
   */
  public StoredChunk store(FileKey file, int index, ByteBuffer data) throws IOException {
    return store(file, index, data, () -> {});
  }

  /**
   * {@link #store(FileKey, int, ByteBuffer)}; a tier that waits on a peer may run {@code meanwhile}
   * while it waits ({@link Tier#store(FileKey, ByteBuffer, Runnable)}).
   */
  public StoredChunk store(FileKey file, int index, ByteBuffer data, Runnable meanwhile)
      throws IOException {
    int length = data.remaining();
    List<String> reports = new ArrayList<>(tiers.size());
    for (Tier tier : tiers) {
      StoredChunk stored;
      try {
        stored = tier.store(file, data.duplicate(), meanwhile);
      } catch (IOException e) {
        LOG.warn(
            "{} tier failed to store chunk {} of {}; trying the next tier: {}",
            tier.kind().label(),
            index,
            file,
            e.getMessage());
        reports.add(tier.kind().label() + " failed (" + e.getMessage() + ")");
        continue;
      }
      if (stored != null) {
        stats.recordWrite(stored.tier(), length);
        return stored;
      }
      reports.add(tier.kind().label() + " full (" + tier.remaining() + ")");
    }
    if (tiers.isEmpty()) {
      reports.add("no tier is configured (sponge.tiers)");
    }
    throw new AllTiersFullException(file, index, length, reports);
  }

  /**
   * Stores {@code data} as chunk {@code index} of {@code file} on the disk tier alone, for a writer
   * whose chunks queued for the remote tier fill every write-behind buffer ({@link
   * PlacementPolicy#overflows}).
   *
   * @return the stored chunk, or null when the disk tier has no room or failed (logged); the writer
   *     then waits for the queue as usual
   */
  public StoredChunk storeOverflow(FileKey file, int index, ByteBuffer data) {
    Tier disk = tier(TierKind.DISK);
    if (disk == null) {
      return null;
    }
    int length = data.remaining();
    StoredChunk stored;
    try {
      stored = disk.store(file, data.duplicate());
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt(); // the writer's wait that follows reports it
      return null;
    } catch (IOException e) {
      LOG.warn(
          "disk tier failed to store overflow chunk {} of {}; queueing it: {}",
          index,
          file,
          e.getMessage());
      return null;
    }
    if (stored != null) {
      stats.recordWrite(stored.tier(), length);
    }
    return stored;
  }

  /** Tells every tier that {@code file} has all its chunks. */
  public void sealed(FileKey file) throws IOException {
    for (Tier tier : tiers) {
      tier.sealed(file);
    }
  }

  /** Releases every chunk of {@code file}, each by the tier that holds it. */
  public void delete(FileKey file, List<StoredChunk> chunks) throws IOException {
    Map<TierKind, List<StoredChunk>> byTier = new EnumMap<>(TierKind.class);
    for (StoredChunk chunk : chunks) {
      byTier.computeIfAbsent(chunk.tier(), k -> new ArrayList<>()).add(chunk);
    }
    IOException failure = null;
    for (Tier tier : tiers) {
      try {
        tier.delete(file, byTier.getOrDefault(tier.kind(), List.of()));
      } catch (IOException | RuntimeException e) {
        LOG.warn("{} tier failed to release {}: {}", tier.kind().label(), file, e.toString());
        if (failure == null) {
          failure = e instanceof IOException ? (IOException) e : new IOException(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Closes every tier, the nearest last; reports the first failure after trying all. */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (int i = tiers.size() - 1; i >= 0; i--) {
      try {
        tiers.get(i).close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Closing the {} tier failed: {}", tiers.get(i).kind().label(), e.toString());
        if (failure == null) {
          failure = e instanceof IOException ? (IOException) e : new IOException(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (Tier tier : tiers) {
      text.append(text.length() == 0 ? "" : " -> ").append(tier.kind().label());
    }
    return text.toString();
  }
}
