package org.spongefiles.server;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.OwnerEntry;

/**
 * Chunks each session (the owner's task field of chunks allocated through the server) and each node
 * (the owner's host) holds in this node's pool, for the quotas. Rebuilt from the pool's owner
 * entries (the truth, which also counts chunks reclaimed from dead owners) at every reclaim sweep.
 *
 * <p>Exact under any concurrency: an allocation first {@link #reserve reserves} its chunks, with a
 * compare-and-add against both quotas at once, and only then takes them from the pool; what the
 * pool did not give is returned when the reservation closes. So the count never lags behind the
 * chunks handed out, whichever event-loop threads allocate at once. Allocations and frees hold the
 * shared side of a read-write lock while they change the pool; a rebuild holds the exclusive side,
 * so it never reads the owner entries while a change is half made (counted in the pool and not yet
 * here, or the reverse) and never loses a reservation in flight.
 */
final class QuotaLedger {
  /** Which quota left no room; the held count it found. */
  enum Limit {
    SESSION,
    NODE
  }

  private final Map<Long, Integer> chunksBySession = new HashMap<>();
  private final Map<Integer, Integer> chunksByHost = new HashMap<>();
  private final ReentrantReadWriteLock recount = new ReentrantReadWriteLock();

  /**
   * Chunks a session may take now: granted at once in the ledger (held against both quotas until
   * {@link #close}), then kept for the chunks the pool actually gave ({@link #keep}).
   */
  final class Reservation implements AutoCloseable {
    private final ChunkOwner owner;
    private final int granted;
    private final Limit refusedBy;
    private final int held;
    private int kept;
    private boolean closed;

    private Reservation(ChunkOwner owner, int granted, Limit refusedBy, int held) {
      this.owner = owner;
      this.granted = granted;
      this.refusedBy = refusedBy;
      this.held = held;
    }

    /** Chunks granted; 0 when a quota is full ({@link #refusedBy} says which). */
    int granted() {
      return granted;
    }

    Limit refusedBy() {
      return refusedBy;
    }

    /** What the full quota's owner held when it was refused. */
    int held() {
      return held;
    }

    /** The pool gave {@code chunks} of the chunks granted; the rest goes back at close. */
    void keep(int chunks) {
      if (chunks < 0 || chunks > granted) {
        throw new IllegalArgumentException(
            "chunks : " + chunks + " (expected: 0 to " + granted + ", the chunks granted)");
      }
      kept = chunks;
    }

    /** Returns the chunks granted and not kept, and ends the change. Idempotent. */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        subtract(owner, granted - kept);
      } finally {
        recount.readLock().unlock();
      }
    }
  }

  /** A change of the pool that frees chunks; returns how many it freed. */
  interface Freeing {
    int free() throws IOException;
  }

  /**
   * Reserves up to {@code count} chunks for {@code owner}: no more than leave the session within
   * {@code sessionQuota} and, for a remote owner, its node within {@code nodeQuota} (0 = no quota).
   * The caller allocates, calls {@link Reservation#keep}, and closes the reservation in {@code
   * finally}.
   */
  Reservation reserve(ChunkOwner owner, int count, long sessionQuota, long nodeQuota) {
    Lock shared = recount.readLock();
    shared.lock();
    try {
      return grant(owner, count, sessionQuota, owner.host() == 0 ? 0 : nodeQuota);
    } catch (Throwable e) {
      shared.unlock(); // no reservation to close it: an Error too must not keep the lock
      throw e;
    }
  }

  private synchronized Reservation grant(
      ChunkOwner owner, int count, long sessionQuota, long nodeQuota) {
    int allowed = count;
    int session = chunksBySession.getOrDefault(owner.task(), 0);
    if (sessionQuota > 0) {
      if (session >= sessionQuota) {
        return new Reservation(owner, 0, Limit.SESSION, session);
      }
      allowed = (int) Math.min(allowed, sessionQuota - session);
    }
    int node = chunksByHost.getOrDefault(owner.host(), 0);
    if (nodeQuota > 0) {
      if (node >= nodeQuota) {
        return new Reservation(owner, 0, Limit.NODE, node);
      }
      allowed = (int) Math.min(allowed, nodeQuota - node);
    }
    add(owner, allowed);
    return new Reservation(owner, allowed, null, 0);
  }

  /** Runs {@code freeing} (which frees chunks of {@code owner}) and counts what it freed. */
  int free(ChunkOwner owner, Freeing freeing) throws IOException {
    Lock shared = recount.readLock();
    shared.lock();
    try {
      int freed = freeing.free();
      subtract(owner, freed);
      return freed;
    } finally {
      shared.unlock();
    }
  }

  synchronized int chunks(ChunkOwner owner) {
    return chunksBySession.getOrDefault(owner.task(), 0);
  }

  synchronized int hostChunks(ChunkOwner owner) {
    return chunksByHost.getOrDefault(owner.host(), 0);
  }

  private synchronized void add(ChunkOwner owner, int chunks) {
    if (chunks > 0) {
      chunksBySession.merge(owner.task(), chunks, Integer::sum);
      chunksByHost.merge(owner.host(), chunks, Integer::sum);
    }
  }

  private synchronized void subtract(ChunkOwner owner, int chunks) {
    if (chunks > 0) {
      chunksBySession.computeIfPresent(
          owner.task(), (task, held) -> held > chunks ? held - chunks : null);
      chunksByHost.computeIfPresent(
          owner.host(), (host, held) -> held > chunks ? held - chunks : null);
    }
  }

  /**
   * Recounts from the owner entries {@code owners} returns, read while no allocation or free
   * through the server is under way.
   */
  void rebuild(Supplier<List<OwnerEntry>> owners) {
    Lock exclusive = recount.writeLock();
    exclusive.lock();
    try {
      List<OwnerEntry> entries = owners.get();
      synchronized (this) {
        chunksBySession.clear();
        chunksByHost.clear();
        for (OwnerEntry entry : entries) {
          chunksBySession.merge(entry.owner().task(), 1, Integer::sum);
          chunksByHost.merge(entry.owner().host(), 1, Integer::sum);
        }
      }
    } finally {
      exclusive.unlock();
    }
  }
}
