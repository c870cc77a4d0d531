package org.spongefiles.core.pool;

/**
 * Byte layout of a shared pool, version {@value #VERSION}. A pool is one metadata file and one or
 * more segment files in a tmpfs directory, all mapped by every task JVM of the node and by the
 * node's sponge server. Every word is in the creator's native byte order and read or written
 * atomically (see {@link MappedWords}); 8-byte words sit at 8-byte aligned offsets.
 *
 * <pre>
 * Metadata file  &lt;dir&gt;/&lt;name&gt;.meta
 *
 *  offset   size  field
 *  ------   ----  ------------------------------------------------------------------------
 *       0      8  magic              "SPONGEPL" (0x53504F4E4745504C)
 *       8      4  layout version     2 (1 named owners by pid; it is refused)
 *      12      4  byte-order mark    0x01020304 in the creator's byte order
 *      16      4  chunk size         bytes
 *      20      4  chunk count        N
 *      24      4  chunks per segment
 *      28      4  segment count
 *      32      8  pool id            random; names the segment files
 *      40      8  created at         epoch millis
 *      48      8  (reserved)         0; was the creator's pid namespace in version 1
 *      56      4  host slots         S
 *      60      4  (reserved)
 *      64      8  lock word          0 = free, else the holder process's lease id
 *      72      8  free count         entries [0, free count) of the free stack are free chunks
 *      80      8  allocations        chunks allocated since creation
 *      88      8  reclaimed          chunks freed because their owner died
 *      96      8  lock takeovers     locks taken from dead holders
 *     104      -  reserved up to 4096
 *    4096    4*N  free stack         int chunk indexes, most recently freed on top
 *       E   32*N  owner entries      one per chunk, E = 4096 + 4*N rounded up to 8
 *       H   64*S  host table         per slot: int length, then the node's name in UTF-8
 *
 * Owner entry of chunk c at E + 32*c
 *
 *      +0      8  lease              owner process's lease id; 0 = free
 *      +8      4  host               0 = this node, h &gt; 0 = host table slot h - 1
 *     +12      4  pid                owner's pid as it saw itself (diagnostic only)
 *     +16      8  task               hash of the owning task attempt id, or a server session
 *     +24      8  generation         incremented at every allocation of chunk c
 *
 * Segment file s  &lt;dir&gt;/&lt;name&gt;.&lt;pool id in hex&gt;.&lt;s&gt;
 *
 *   chunks per segment × chunk size bytes; chunk c is segment c / chunksPerSegment at
 *   offset (c % chunksPerSegment) × chunk size.
 *
 * Lease files  &lt;dir&gt;/sponge-leases/&lt;lease id in 16 hex digits&gt;.lease
 *
 *   one per live process using the node's pools or servers, exclusively locked (fcntl) by it;
 *   see {@link LeaseDirectory}. A lease id whose file is gone or unlocked is dead.
 * </pre>
 *
 * <p>The free stack and the owner entries change only under the lock; data reads and writes never
 * take it. The owner entries are the truth: after taking over a dead holder's lock, the free stack
 * is rebuilt from them.
 */
final class PoolLayout {
  static final long MAGIC = 0x53504F4E4745504CL;
  static final int VERSION = 2;
  static final int BYTE_ORDER_MARK = 0x01020304;

  static final int OFF_MAGIC = 0;
  static final int OFF_VERSION = 8;
  static final int OFF_BOM = 12;
  static final int OFF_CHUNK_SIZE = 16;
  static final int OFF_CHUNK_COUNT = 20;
  static final int OFF_CHUNKS_PER_SEGMENT = 24;
  static final int OFF_SEGMENT_COUNT = 28;
  static final int OFF_POOL_ID = 32;
  static final int OFF_CREATED = 40;
  static final int OFF_RESERVED = 48;
  static final int OFF_HOST_SLOTS = 56;
  static final int OFF_LOCK = 64;
  static final int OFF_FREE_COUNT = 72;
  static final int OFF_ALLOCATIONS = 80;
  static final int OFF_RECLAIMED = 88;
  static final int OFF_TAKEOVERS = 96;

  static final int HEADER_SIZE = 4096;
  static final int ENTRY_SIZE = 32;
  static final int ENTRY_LEASE = 0;
  static final int ENTRY_HOST = 8;
  static final int ENTRY_PID = 12;
  static final int ENTRY_TASK = 16;
  static final int ENTRY_GENERATION = 24;

  static final int HOST_SLOT_SIZE = 64;
  static final int DEFAULT_HOST_SLOTS = 1024;

  /** Keeps the metadata file addressable with int offsets. */
  static final int MAX_CHUNKS = 32 << 20;

  final int chunkSize;
  final int chunkCount;
  final int chunksPerSegment;
  final int segmentCount;
  final int hostSlots;

  PoolLayout(int chunkSize, int chunkCount, int chunksPerSegment, int hostSlots) {
    if (chunkSize <= 0 || chunkCount <= 0 || chunksPerSegment <= 0) {
      throw new IllegalArgumentException(
          "pool geometry must be positive: chunk size "
              + chunkSize
              + ", chunks "
              + chunkCount
              + ", chunks per segment "
              + chunksPerSegment);
    }
    if (chunkCount > MAX_CHUNKS) {
      throw new IllegalArgumentException(
          "a pool holds at most " + MAX_CHUNKS + " chunks, not " + chunkCount);
    }
    if ((long) chunksPerSegment * chunkSize > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "segment of " + chunksPerSegment + " chunks of " + chunkSize + " bytes exceeds 2 GiB");
    }
    this.chunkSize = chunkSize;
    this.chunkCount = chunkCount;
    this.chunksPerSegment = Math.min(chunksPerSegment, chunkCount);
    this.segmentCount = (chunkCount + this.chunksPerSegment - 1) / this.chunksPerSegment;
    this.hostSlots = hostSlots;
  }

  /** Geometry for a pool of {@code poolBytes} (rounded down to whole chunks). */
  static PoolLayout forSize(long poolBytes, int chunkSize, long segmentBytes) {
    long chunks = poolBytes / chunkSize;
    if (chunks < 1) {
      throw new IllegalArgumentException(
          "pool of " + poolBytes + " bytes holds no chunk of " + chunkSize + " bytes");
    }
    if (chunks > MAX_CHUNKS) {
      throw new IllegalArgumentException(
          "pool of "
              + poolBytes
              + " bytes would have "
              + chunks
              + " chunks; at most "
              + MAX_CHUNKS
              + " are supported (use a larger chunk size)");
    }
    int perSegment = (int) Math.max(1, Math.min(segmentBytes / chunkSize, chunks));
    return new PoolLayout(chunkSize, (int) chunks, perSegment, DEFAULT_HOST_SLOTS);
  }

  int freeStackOffset() {
    return HEADER_SIZE;
  }

  int entriesOffset() {
    int end = HEADER_SIZE + 4 * chunkCount;
    return (end + 7) & ~7;
  }

  int entryOffset(int chunk) {
    return entriesOffset() + ENTRY_SIZE * chunk;
  }

  int hostTableOffset() {
    return entriesOffset() + ENTRY_SIZE * chunkCount;
  }

  int metadataSize() {
    return hostTableOffset() + HOST_SLOT_SIZE * hostSlots;
  }

  int chunksInSegment(int segment) {
    int first = segment * chunksPerSegment;
    return Math.min(chunksPerSegment, chunkCount - first);
  }

  long segmentBytes(int segment) {
    return (long) chunksInSegment(segment) * chunkSize;
  }

  long totalBytes() {
    return (long) chunkCount * chunkSize;
  }
}
