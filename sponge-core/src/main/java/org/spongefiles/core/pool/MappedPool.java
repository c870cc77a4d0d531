package org.spongefiles.core.pool;

import static org.spongefiles.core.pool.PoolLayout.OFF_ALLOCATIONS;
import static org.spongefiles.core.pool.PoolLayout.OFF_RECLAIMED;
import static org.spongefiles.core.pool.PoolLayout.OFF_TAKEOVERS;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mapping of a pool's files in this JVM, shared by every {@link SharedPool} handle on it. It is
 * never unmapped explicitly: a buffer that outlives its handle (a reader's view, a reply still
 * queued on a socket) would then crash the JVM on its next access. Once the last handle closes the
 * mapping is forgotten, and the garbage collector unmaps it when no buffer refers to it any more.
 */
final class MappedPool {
  private static final Logger LOG = LoggerFactory.getLogger(MappedPool.class);

  final PoolSpec spec;
  final PoolLayout layout;
  final long poolId;
  private final MappedByteBuffer header;
  private final MappedByteBuffer[] segments;
  private final MappedWords words;
  private final PoolLock lock;
  private final OwnerTable table;
  private final SegmentChannels files;
  private final WrittenExtents extents;
  final LeaseDirectory leases;
  final Lease lease;
  private int handles;

  /** A mapping whose lock is taken under {@code lease}, this process's lease in {@code leases}. */
  MappedPool(
      PoolSpec spec,
      PoolLayout layout,
      MappedByteBuffer header,
      MappedByteBuffer[] segments,
      long poolId,
      WrittenExtents extents,
      Lease lease,
      LeaseDirectory leases) {
    this.spec = spec;
    this.layout = layout;
    this.header = header;
    this.segments = segments;
    this.poolId = poolId;
    this.leases = leases;
    this.lease = lease;
    this.words = new MappedWords(header);
    this.lock = new PoolLock(words, poolId, spec.metadataFile().toString(), lease, leases);
    this.table = new OwnerTable(layout, words);
    Path[] paths = new Path[layout.segmentCount];
    for (int s = 0; s < paths.length; s++) {
      paths[s] = PoolFiles.segmentFile(spec.dir(), spec.name(), poolId, s);
    }
    this.files = new SegmentChannels(paths);
    this.extents = extents;
  }

  synchronized void retain() {
    handles++;
  }

  /** Returns true when this was the last handle; the segment files' channels are then closed. */
  synchronized boolean release() {
    handles--;
    if (handles > 0) {
      return false;
    }
    try {
      files.close();
    } catch (IOException e) {
      LOG.debug("Closing the segment files of {}: {}", spec.metadataFile(), e.toString());
    }
    return true;
  }

  List<PoolChunk> allocate(ChunkOwner owner, int count) throws IOException {
    return locked(() -> table.allocate(owner, count, extents));
  }

  int free(ChunkOwner owner, Collection<PoolChunk> chunks) throws IOException {
    return locked(
        () -> {
          int freed = 0;
          for (PoolChunk chunk : chunks) {
            if (table.free(chunk.index(), owner, chunk.generation())) {
              freed++;
            }
          }
          return freed;
        },
        false);
  }

  int freeAll(ChunkOwner owner) throws IOException {
    return locked(() -> table.freeAll(owner), false);
  }

  int reclaim(Collection<OwnerEntry> orphans) throws IOException {
    if (orphans.isEmpty()) {
      return 0;
    }
    int freed =
        locked(
            () -> {
              int count = 0;
              for (OwnerEntry orphan : orphans) {
                if (table.freeIfUnchanged(orphan)) {
                  count++;
                }
              }
              return count;
            },
            false);
    words.addLong(OFF_RECLAIMED, freed);
    return freed;
  }

  List<OwnerEntry> owners() {
    return table.snapshot();
  }

  long generation(int chunk) {
    return table.generation(chunk);
  }

  boolean isOwnedBy(PoolChunk chunk, ChunkOwner owner) {
    return table.isOwnedBy(chunk.index(), owner, chunk.generation());
  }

  int freeChunks() {
    return table.freeCount();
  }

  long lockHolder() {
    return lock.holder();
  }

  long allocations() {
    return words.getLong(OFF_ALLOCATIONS);
  }

  long reclaimed() {
    return words.getLong(OFF_RECLAIMED);
  }

  long takeovers() {
    return words.getLong(OFF_TAKEOVERS);
  }

  /** Writes {@code src} at {@code offset} of chunk {@code index} through its segment file. */
  void write(int index, int offset, ByteBuffer src) throws IOException {
    files.write(index / layout.chunksPerSegment, fileOffset(index, offset), src);
  }

  /** Fills {@code dst} from {@code offset} of chunk {@code index} through its segment file. */
  void read(int index, int offset, ByteBuffer dst) throws IOException {
    files.read(index / layout.chunksPerSegment, fileOffset(index, offset), dst);
  }

  private long fileOffset(int index, int offset) {
    return (long) (index % layout.chunksPerSegment) * layout.chunkSize + offset;
  }

  WrittenExtents extents() {
    return extents;
  }

  /** Writes zeros over bytes {@code from} to {@code to} of chunk {@code index}. */
  void zero(int index, int from, int to) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocate(Math.min(to - from, 64 << 10));
    for (int at = from; at < to; ) {
      int length = Math.min(zeros.capacity(), to - at);
      zeros.clear().limit(length);
      write(index, at, zeros);
      at += length;
    }
  }

  /** A writable view of chunk {@code index}'s bytes. */
  ByteBuffer chunk(int index) {
    MappedByteBuffer segment = segments[index / layout.chunksPerSegment];
    int offset = (index % layout.chunksPerSegment) * layout.chunkSize;
    ByteBuffer view = segment.duplicate();
    view.position(offset).limit(offset + layout.chunkSize);
    return view.slice();
  }

  /**
   * The host-table id of {@code node}, adding it when new; 0 is reserved for this node. When the
   * table is full, slots no chunk refers to any more are cleared first.
   *
   * @throws IOException when every slot is still referenced by an allocated chunk
   */
  int hostId(String node) throws IOException {
    byte[] name = node.getBytes(StandardCharsets.UTF_8);
    if (name.length > PoolLayout.HOST_SLOT_SIZE - 4) {
      throw new IllegalArgumentException(
          "node name '" + node + "' is longer than " + (PoolLayout.HOST_SLOT_SIZE - 4) + " bytes");
    }
    int id =
        locked(
            () -> {
              int found = findOrAdd(node, name);
              if (found == 0) {
                clearUnreferencedHosts();
                found = findOrAdd(node, name);
              }
              return found;
            });
    if (id == 0) {
      throw new IOException(
          "host table of pool "
              + spec.metadataFile()
              + " is full: "
              + layout.hostSlots
              + " other nodes hold chunks here");
    }
    return id;
  }

  /** The host-table id of {@code node}, or 0 when it has none. */
  int findHostId(String node) {
    for (int slot = 0; slot < layout.hostSlots; slot++) {
      if (node.equals(hostSlot(slot))) {
        return slot + 1;
      }
    }
    return 0;
  }

  /** Lock held. Returns the id, or 0 when the table is full. */
  private int findOrAdd(String node, byte[] name) {
    int firstEmpty = -1;
    for (int slot = 0; slot < layout.hostSlots; slot++) {
      String existing = hostSlot(slot);
      if (existing == null) {
        if (firstEmpty < 0) {
          firstEmpty = slot;
        }
      } else if (existing.equals(node)) {
        return slot + 1;
      }
    }
    if (firstEmpty < 0) {
      return 0;
    }
    int offset = layout.hostTableOffset() + firstEmpty * PoolLayout.HOST_SLOT_SIZE;
    ByteBuffer bytes = words.bytes();
    bytes.position(offset + 4);
    bytes.put(name);
    words.setInt(offset, name.length);
    return firstEmpty + 1;
  }

  /** Lock held. Empties every host slot that no allocated chunk's owner refers to. */
  private void clearUnreferencedHosts() {
    boolean[] referenced = new boolean[layout.hostSlots + 1];
    for (OwnerEntry entry : table.snapshot()) {
      int host = entry.owner().host();
      if (host > 0 && host <= layout.hostSlots) {
        referenced[host] = true;
      }
    }
    for (int slot = 0; slot < layout.hostSlots; slot++) {
      if (!referenced[slot + 1]) {
        words.setInt(layout.hostTableOffset() + slot * PoolLayout.HOST_SLOT_SIZE, 0);
      }
    }
  }

  /** The node name of host id {@code host}, or null when the slot is empty. */
  String hostName(int host) {
    if (host <= 0 || host > layout.hostSlots) {
      return null;
    }
    return hostSlot(host - 1);
  }

  private String hostSlot(int slot) {
    int offset = layout.hostTableOffset() + slot * PoolLayout.HOST_SLOT_SIZE;
    int length = words.getInt(offset);
    if (length <= 0 || length > PoolLayout.HOST_SLOT_SIZE - 4) {
      return null;
    }
    byte[] name = new byte[length];
    ByteBuffer bytes = words.bytes();
    bytes.position(offset + 4);
    bytes.get(name);
    return new String(name, StandardCharsets.UTF_8);
  }

  private interface LockedAction<T> {
    T run();
  }

  private <T> T locked(LockedAction<T> action) throws IOException {
    return locked(action, true);
  }

  /**
   * Runs {@code action} holding the pool's lock. An uninterruptible caller (a free) waits for the
   * lock whatever its thread's interrupt, which it keeps: a task being stopped must still give its
   * chunks back rather than leave them to the sweep at its end.
   */
  private <T> T locked(LockedAction<T> action, boolean interruptible) throws IOException {
    boolean tookOver;
    boolean interrupted = false;
    while (true) {
      try {
        tookOver = lock.lock(spec.lockTimeout());
        break;
      } catch (InterruptedException e) {
        if (interruptible) {
          Thread.currentThread().interrupt();
          InterruptedIOException stopped =
              new InterruptedIOException("interrupted waiting for pool " + spec.metadataFile());
          stopped.initCause(e);
          throw stopped;
        }
        interrupted = true;
      }
    }
    try {
      if (tookOver) {
        LOG.warn(
            "Took over the lock of pool {} from a dead holder; rebuilding its free list",
            spec.metadataFile());
        table.rebuildFreeStack();
      }
      return action.run();
    } finally {
      lock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
