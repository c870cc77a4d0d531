package org.spongefiles.core.pool;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's shared memory pool: fixed-size chunks in tmpfs files that every task JVM of the node and
 * the node's sponge server open at once, with one owner entry per chunk in a mapped metadata file.
 * The server reads and writes chunks through its mapping ({@link #chunkBuffer}); tasks copy them in
 * and out with positional reads and writes ({@link #write}, {@link #read}). Allocating and freeing
 * take a cross-process lock (a dead holder's lock is taken over); reading and writing chunk bytes
 * never do. See {@link PoolLayout} for the byte layout.
 *
 * <p>Handles are cheap: every {@link #open} returns a new handle on the JVM's one mapping of the
 * pool. Every method of a closed handle throws {@link IllegalStateException}; the mapping itself is
 * released by the garbage collector once no buffer refers to it, never while one still does.
 */
public final class SharedPool implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedPool.class);
  private static final Map<String, MappedPool> MAPPED = new HashMap<>();
  private static final int PAGE_BYTES = 4096;

  private final MappedPool pool;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SharedPool(MappedPool pool) {
    this.pool = pool;
  }

  /**
   * Attaches to the pool described by {@code spec}, creating it when it does not exist and {@code
   * spec.create()} allows.
   *
   * @throws PoolFormatException when the files exist but are not a pool this build can use
   * @throws java.nio.file.NoSuchFileException when there is no pool and creation is not allowed
   */
  public static SharedPool open(PoolSpec spec) throws IOException {
    synchronized (MAPPED) {
      String key = spec.metadataFile().toAbsolutePath().normalize().toString();
      MappedPool mapped = MAPPED.get(key);
      if (mapped != null && !isCurrent(mapped)) {
        mapped = null; // the files were replaced; handles on the old mapping keep it
      }
      if (mapped == null) {
        mapped = PoolFiles.openOrCreate(spec);
        MAPPED.put(key, mapped);
      }
      mapped.retain();
      return new SharedPool(mapped);
    }
  }

  /**
   * The files of the pool {@code name} in {@code dir} as they are on disk, sorted: its metadata
   * file, segments and written extents, and whatever lives beside the metadata file under its name
   * (the server's session key, a creator's temporary file). Empty when there is no such pool.
   */
  public static List<java.nio.file.Path> files(java.nio.file.Path dir, String name)
      throws IOException {
    return PoolFiles.list(dir, name);
  }

  private static boolean isCurrent(MappedPool mapped) {
    Path segment = PoolFiles.segmentFile(mapped.spec.dir(), mapped.spec.name(), mapped.poolId, 0);
    return java.nio.file.Files.exists(mapped.spec.metadataFile())
        && java.nio.file.Files.exists(segment);
  }

  /**
   * Allocates up to {@code count} chunks for {@code owner}; fewer (possibly none) when the pool has
   * fewer free.
   *
   * @throws PoolLockTimeoutException when a live process held the lock past the timeout
   */
  public List<PoolChunk> allocate(ChunkOwner owner, int count) throws IOException {
    checkOpen();
    if (count <= 0) {
      throw new IllegalArgumentException("count : " + count + " (expected: > 0)");
    }
    return pool.allocate(owner, count);
  }

  /** Allocates one chunk, or returns null when the pool is full. */
  public PoolChunk allocateOne(ChunkOwner owner) throws IOException {
    List<PoolChunk> chunks = allocate(owner, 1);
    return chunks.isEmpty() ? null : chunks.get(0);
  }

  /**
   * Frees chunks of {@code owner}. A chunk that is no longer the owner's (already freed, or
   * reclaimed and reallocated) is left alone. An interrupt of the caller's thread does not stop a
   * free (it is kept): a task being stopped still gives its chunks back.
   *
   * @return how many were freed
   */
  public int free(ChunkOwner owner, Collection<PoolChunk> chunks) throws IOException {
    checkOpen();
    if (chunks.isEmpty()) {
      return 0;
    }
    return pool.free(owner, chunks);
  }

  /** Frees every chunk {@code owner} still holds, interrupted or not (see {@link #free}). */
  public int freeAll(ChunkOwner owner) throws IOException {
    checkOpen();
    return pool.freeAll(owner);
  }

  /**
   * Frees every chunk whose owner is a process of this node whose lease has ended.
   *
   * @return how many chunks were freed
   */
  public int reclaimOrphans() throws IOException {
    int freed = pool.reclaim(deadLocalOwners());
    if (freed > 0) {
      LOG.info("Reclaimed {} chunk(s) of dead processes from pool {}", freed, metadataFile());
    }
    pool.leases.sweep(); // the files of ended leases, whose chunks are free now
    return freed;
  }

  /**
   * The owner entries of this node's processes whose lease has ended: what {@link #reclaimOrphans}
   * frees, and what the sponge server frees once no I/O of its own is in flight.
   */
  public List<OwnerEntry> deadLocalOwners() {
    checkOpen();
    List<OwnerEntry> dead = new ArrayList<>();
    Map<Long, Boolean> alive = new HashMap<>();
    for (OwnerEntry entry : pool.owners()) {
      ChunkOwner owner = entry.owner();
      if (owner.isLocal() && !alive.computeIfAbsent(owner.lease(), pool.leases::isAlive)) {
        dead.add(entry);
      }
    }
    return dead;
  }

  /** This process's lease beside the pool, under which it takes the pool's lock. */
  public Lease processLease() {
    checkOpen();
    return pool.lease;
  }

  /** The node's lease files, beside this pool: whose owners are alive. */
  public LeaseDirectory leases() {
    checkOpen();
    return pool.leases;
  }

  /**
   * Frees the chunks of {@code orphans} whose entries have not changed since they were read. The
   * sponge server uses it for remote owners it has found dead.
   */
  public int reclaim(Collection<OwnerEntry> orphans) throws IOException {
    checkOpen();
    return pool.reclaim(orphans);
  }

  /** Every allocated chunk's owner, read without the lock. */
  public List<OwnerEntry> owners() {
    checkOpen();
    return pool.owners();
  }

  /**
   * A writable view of chunk {@code chunk}'s bytes (position 0, limit {@link #chunkSize()}). Views
   * are independent: each caller gets its own position and limit. For the node's sponge server,
   * which maps every page once ({@link #touchAll}) and then lives for months; a task moves its
   * chunks with {@link #write} and {@link #read} instead.
   */
  public ByteBuffer chunkBuffer(int chunk) {
    checkOpen();
    checkChunk(chunk);
    return pool.chunk(chunk);
  }

  /**
   * Copies {@code src} (position to limit, advanced to its limit) into chunk {@code chunk} from
   * byte {@code offset}, with positional writes to the chunk's segment file. A task copies its
   * chunks this way rather than through the mapping: every page a process first touches through a
   * mapping of its own costs it a page fault, and a task touches each page of its chunks once (256
   * MiB of chunks written through a fresh mapping took 0.8-1.1 s on the 2-core VM the benchmarks
   * ran on, with positional writes 50 ms).
   *
   * <p>The bytes written count as the owner's ({@link WrittenExtents}); a copy that starts past
   * what the owner has written so far first zeroes the gap.
   */
  public void write(int chunk, int offset, ByteBuffer src) throws IOException {
    checkOpen();
    checkRange(chunk, offset, src.remaining());
    long generation = pool.generation(chunk);
    int extent = pool.extents().extent(chunk, generation);
    if (extent != WrittenExtents.UNKNOWN && offset > extent) {
      pool.zero(chunk, extent, offset);
    }
    int end = offset + src.remaining();
    pool.write(chunk, offset, src);
    pool.extents().written(chunk, generation, end);
  }

  /**
   * Fills {@code dst} (position to limit) from byte {@code offset} of chunk {@code chunk}, with
   * positional reads of its segment file (see {@link #write}). Bytes past what the chunk's current
   * owner has written read as zeros: a chunk's earlier owners' bytes are never returned.
   */
  public void read(int chunk, int offset, ByteBuffer dst) throws IOException {
    checkOpen();
    checkRange(chunk, offset, dst.remaining());
    int extent = pool.extents().extent(chunk, pool.generation(chunk));
    if (extent == WrittenExtents.UNKNOWN || offset + dst.remaining() <= extent) {
      pool.read(chunk, offset, dst);
      return;
    }
    if (extent > offset) {
      ByteBuffer written = dst.duplicate();
      written.limit(written.position() + (extent - offset));
      pool.read(chunk, offset, written);
      dst.position(written.position());
    }
    dst.put(new byte[dst.remaining()]);
  }

  /**
   * Bytes of {@code chunk} its owner has written since it was lent at the handle's generation, or
   * {@link WrittenExtents#UNKNOWN}: for the sponge server, which moves chunk bytes through its
   * mapping ({@link #chunkBuffer}) and must answer reads past this with zeros.
   */
  public int writtenLength(PoolChunk chunk) {
    checkOpen();
    checkChunk(chunk.index());
    return pool.extents().extent(chunk.index(), chunk.generation());
  }

  /**
   * Records that the owner of {@code chunk} has written every byte below {@code end}, after it
   * wrote them through the mapping; a write past {@link #writtenLength} must zero the gap first.
   */
  public void written(PoolChunk chunk, int end) {
    checkOpen();
    checkChunk(chunk.index());
    pool.extents().written(chunk.index(), chunk.generation(), end);
  }

  private void checkChunk(int chunk) {
    if (chunk < 0 || chunk >= pool.layout.chunkCount) {
      throw new IndexOutOfBoundsException(
          "chunk : " + chunk + " (expected: 0 to " + (pool.layout.chunkCount - 1) + ")");
    }
  }

  private void checkRange(int chunk, int offset, int length) {
    checkChunk(chunk);
    if (offset < 0 || length > pool.layout.chunkSize - offset) {
      throw new IndexOutOfBoundsException(
          "bytes "
              + offset
              + " to "
              + ((long) offset + length)
              + " of chunk "
              + chunk
              + " (expected: within its "
              + pool.layout.chunkSize
              + " bytes)");
    }
  }

  /**
   * Writes to every page of the pool's chunks without changing a byte (an atomic compare-and-set of
   * one word per page to the value it holds), so that every page exists and is charged to this
   * process's memory cgroup: cgroup v1 charges a tmpfs page to the process that touches it first,
   * and a task in a YARN container that did would pay for the node's pool under its own limit (and
   * for the page faults). Safe while tasks use the pool: a word a task changes in between only
   * fails the compare, and its page then exists already. A plain read and write back of the same
   * value is not enough: the JIT may drop the store.
   *
   * @return the bytes of the pages touched
   */
  public long touchAll() {
    checkOpen();
    int size = chunkSize();
    long touched = 0;
    for (int chunk = 0; chunk < chunkCount(); chunk++) {
      MappedWords words = new MappedWords(pool.chunk(chunk));
      for (int offset = 0; offset <= size - Integer.BYTES; offset += PAGE_BYTES) {
        int value = words.getInt(offset);
        words.casInt(offset, value, value);
        touched += Math.min(PAGE_BYTES, size - offset);
      }
    }
    return touched;
  }

  /** The current allocation generation of {@code chunk}. */
  public long generation(int chunk) {
    checkOpen();
    return pool.generation(chunk);
  }

  /** True when {@code chunk} is still allocated at the generation of the handle. */
  public boolean isCurrent(PoolChunk chunk) {
    checkOpen();
    // Callers check after copying a chunk's bytes: the fence keeps those plain loads from being
    // performed after the generation is read, so a current generation proves the copy was ours.
    java.lang.invoke.VarHandle.acquireFence();
    return pool.generation(chunk.index()) == chunk.generation();
  }

  /** Whether {@code chunk} is allocated to {@code owner} at the handle's generation right now. */
  public boolean isOwnedBy(PoolChunk chunk, ChunkOwner owner) {
    checkOpen();
    return pool.isOwnedBy(chunk, owner);
  }

  /**
   * Host-table id of a remote node, added when new. An id is stable while chunks refer to it; ids
   * no chunk refers to are recycled when the table fills.
   *
   * @throws IOException when the table is full of nodes that still hold chunks
   */
  public int hostId(String node) throws IOException {
    checkOpen();
    return pool.hostId(node);
  }

  /** Host-table id of a remote node, or 0 when it has none. */
  public int findHostId(String node) {
    checkOpen();
    return pool.findHostId(node);
  }

  /** The node name of a host-table id, or null when unknown. */
  public String hostName(int host) {
    checkOpen();
    return pool.hostName(host);
  }

  public int chunkSize() {
    return pool.layout.chunkSize;
  }

  public int chunkCount() {
    return pool.layout.chunkCount;
  }

  public int freeChunks() {
    checkOpen();
    return pool.freeChunks();
  }

  public long poolId() {
    return pool.poolId;
  }

  public Path metadataFile() {
    return pool.spec.metadataFile();
  }

  /** The lease id of the process holding the pool lock at this instant, 0 when free. */
  public long lockHolder() {
    checkOpen();
    return pool.lockHolder();
  }

  /** Counters kept in the pool's header since it was created. */
  public PoolStats stats() {
    checkOpen();
    return new PoolStats(
        chunkCount(),
        freeChunks(),
        chunkSize(),
        pool.allocations(),
        pool.reclaimed(),
        pool.takeovers());
  }

  /** Releases this handle; the JVM forgets the mapping with its last handle. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      synchronized (MAPPED) {
        if (pool.release()) {
          MAPPED.values().remove(pool);
        }
      }
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("pool handle on " + metadataFile() + " is closed");
    }
  }

  @Override
  public String toString() {
    return "pool " + metadataFile() + " (" + freeChunks() + " of " + chunkCount() + " chunks free)";
  }
}
