package org.spongefiles.core.pool;

import static org.spongefiles.core.pool.PoolLayout.ENTRY_GENERATION;
import static org.spongefiles.core.pool.PoolLayout.ENTRY_HOST;
import static org.spongefiles.core.pool.PoolLayout.ENTRY_LEASE;
import static org.spongefiles.core.pool.PoolLayout.ENTRY_PID;
import static org.spongefiles.core.pool.PoolLayout.ENTRY_TASK;
import static org.spongefiles.core.pool.PoolLayout.OFF_ALLOCATIONS;
import static org.spongefiles.core.pool.PoolLayout.OFF_FREE_COUNT;

import java.util.ArrayList;
import java.util.List;

/**
 * The owner entries and the free stack of a pool's metadata region. Mutating methods must be called
 * with the pool lock held; {@link #snapshot} and {@link #generation} read without it.
 */
final class OwnerTable {
  private final PoolLayout layout;
  private final MappedWords words;

  OwnerTable(PoolLayout layout, MappedWords words) {
    this.layout = layout;
    this.words = words;
  }

  /** Formats a new table: every chunk free, stacked so chunk 0 is allocated first. */
  void format() {
    for (int c = 0; c < layout.chunkCount; c++) {
      int entry = layout.entryOffset(c);
      words.setLong(entry + ENTRY_LEASE, 0);
      words.setInt(entry + ENTRY_HOST, 0);
      words.setInt(entry + ENTRY_PID, 0);
      words.setLong(entry + ENTRY_TASK, 0);
      words.setLong(entry + ENTRY_GENERATION, 0);
    }
    rebuildFreeStack();
  }

  int freeCount() {
    return (int) words.getLong(OFF_FREE_COUNT);
  }

  /**
   * Pops up to {@code count} free chunks for {@code owner}, recording each in {@code extents} as
   * lent and unwritten before its entry names the owner. Lock held.
   */
  List<PoolChunk> allocate(ChunkOwner owner, int count, WrittenExtents extents) {
    List<PoolChunk> chunks = new ArrayList<>(Math.min(count, 64));
    int free = freeCount();
    while (chunks.size() < count && free > 0) {
      int chunk = words.getInt(layout.freeStackOffset() + 4 * (free - 1));
      int entry = layout.entryOffset(chunk);
      if (chunk < 0 || chunk >= layout.chunkCount || words.getLong(entry + ENTRY_LEASE) != 0) {
        // The stack disagrees with the entries (a holder died mid-update): the entries win.
        rebuildFreeStack();
        free = freeCount();
        continue;
      }
      long generation = words.getLong(entry + ENTRY_GENERATION) + 1;
      extents.lent(chunk, generation);
      words.setInt(entry + ENTRY_HOST, owner.host());
      words.setInt(entry + ENTRY_PID, owner.pid());
      words.setLong(entry + ENTRY_TASK, owner.task());
      words.setLong(entry + ENTRY_GENERATION, generation);
      words.setLong(entry + ENTRY_LEASE, owner.lease()); // last: a lease marks the entry taken
      free--;
      words.setLong(OFF_FREE_COUNT, free);
      chunks.add(new PoolChunk(chunk, generation));
    }
    words.addLong(OFF_ALLOCATIONS, chunks.size());
    return chunks;
  }

  /**
   * Frees {@code chunk} if it still belongs to {@code owner} at {@code generation}. Lock held.
   *
   * @return true when freed, false when the chunk had already been freed or reassigned
   */
  boolean free(int chunk, ChunkOwner owner, long generation) {
    if (chunk < 0 || chunk >= layout.chunkCount) {
      return false;
    }
    int entry = layout.entryOffset(chunk);
    if (!owns(entry, owner) || words.getLong(entry + ENTRY_GENERATION) != generation) {
      return false;
    }
    release(chunk, entry);
    return true;
  }

  /** Frees every chunk of {@code owner}. Lock held. */
  int freeAll(ChunkOwner owner) {
    int freed = 0;
    for (int c = 0; c < layout.chunkCount; c++) {
      int entry = layout.entryOffset(c);
      if (owns(entry, owner)) {
        release(c, entry);
        freed++;
      }
    }
    return freed;
  }

  /** Frees the chunk of {@code snapshot} if its entry is unchanged since. Lock held. */
  boolean freeIfUnchanged(OwnerEntry snapshot) {
    return free(snapshot.chunk(), snapshot.owner(), snapshot.generation());
  }

  /** Every allocated chunk's entry, read without the lock (entries may change meanwhile). */
  List<OwnerEntry> snapshot() {
    List<OwnerEntry> entries = new ArrayList<>();
    for (int c = 0; c < layout.chunkCount; c++) {
      int entry = layout.entryOffset(c);
      long lease = words.getLong(entry + ENTRY_LEASE);
      if (lease != 0) {
        long generation = words.getLong(entry + ENTRY_GENERATION);
        ChunkOwner owner =
            new ChunkOwner(
                lease,
                words.getInt(entry + ENTRY_PID),
                Math.max(0, words.getInt(entry + ENTRY_HOST)),
                words.getLong(entry + ENTRY_TASK));
        if (words.getLong(entry + ENTRY_LEASE) == lease) {
          entries.add(new OwnerEntry(c, owner, generation));
        }
      }
    }
    return entries;
  }

  /** Whether {@code chunk} belongs to {@code owner} at {@code generation} now (no lock). */
  boolean isOwnedBy(int chunk, ChunkOwner owner, long generation) {
    if (chunk < 0 || chunk >= layout.chunkCount) {
      return false;
    }
    int entry = layout.entryOffset(chunk);
    return owns(entry, owner) && words.getLong(entry + ENTRY_GENERATION) == generation;
  }

  long generation(int chunk) {
    return words.getLong(layout.entryOffset(chunk) + ENTRY_GENERATION);
  }

  /** Rebuilds the free stack from the owner entries. Lock held. */
  void rebuildFreeStack() {
    int free = 0;
    // Highest index at the bottom, so a fresh pool hands out chunk 0 first.
    for (int c = layout.chunkCount - 1; c >= 0; c--) {
      if (words.getLong(layout.entryOffset(c) + ENTRY_LEASE) == 0) {
        words.setInt(layout.freeStackOffset() + 4 * free, c);
        free++;
      }
    }
    words.setLong(OFF_FREE_COUNT, free);
  }

  private boolean owns(int entry, ChunkOwner owner) {
    return words.getLong(entry + ENTRY_LEASE) == owner.lease()
        && words.getInt(entry + ENTRY_HOST) == owner.host()
        && words.getLong(entry + ENTRY_TASK) == owner.task();
  }

  private void release(int chunk, int entry) {
    words.setLong(entry + ENTRY_LEASE, 0);
    int free = freeCount();
    words.setInt(layout.freeStackOffset() + 4 * free, chunk);
    words.setLong(OFF_FREE_COUNT, free + 1);
  }
}
