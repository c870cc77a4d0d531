package org.spongefiles.server;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.PoolChunk;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.pool.WrittenExtents;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.ServerStats;
import org.spongefiles.core.wire.WireException;

/**
 * What the server does with its pool for remote clients: allocations within the per-session and
 * per-node quotas, and reads, writes and frees of chunks the client's session owns (checked against
 * the owner entry and generation). A chunk's owner records the session the server issued, not the
 * task the client names, so no client can touch a chunk of a session it was not issued. Clients
 * name chunks by their protocol handle; this is where a handle becomes a pool chunk and back.
 *
 * <p>A chunk with a READ reply or a WRITE's data in flight is pinned ({@link ChunkPins}): a FREE of
 * it is answered at once, the chunk is gone for the client, and it returns to the pool after the
 * last pin.
 */
final class PoolService {
  static final int MAX_ALLOCATE = 1024;

  private final SharedPool pool;
  private final String endpoint;
  private final String rack;
  private final long quotaChunks;
  private final long nodeQuotaChunks;
  private final QuotaLedger ledger;
  private final ServerMetrics metrics;
  private final ChunkPins pins;
  private final NodeClaims claims;

  PoolService(
      SharedPool pool,
      String endpoint,
      String rack,
      long quotaBytes,
      long nodeQuotaBytes,
      QuotaLedger ledger,
      ServerMetrics metrics,
      ChunkPins pins) {
    this.pool = pool;
    this.endpoint = endpoint;
    this.rack = rack;
    this.quotaChunks = quotaBytes == 0 ? 0 : Math.max(1, quotaBytes / pool.chunkSize());
    this.nodeQuotaChunks = nodeQuotaBytes == 0 ? 0 : Math.max(1, nodeQuotaBytes / pool.chunkSize());
    this.ledger = ledger;
    this.metrics = metrics;
    this.pins = pins;
    this.claims = new NodeClaims(endpoint, new ThisHost(), pool.leases()::isAlive);
  }

  /**
   * The name under which a client's node is recorded in the pool's host table (see {@link
   * NodeClaims}): this node is the empty key.
   */
  String nodeKey(Hello hello, InetAddress source, String peerHost) {
    return claims.nodeKey(hello, source, peerHost);
  }

  /**
   * The owner chunks of this client get, recording its node in the host table if needed; {@code
   * cachedHost} is reused while the table still names the node there.
   */
  ChunkOwner ownerForAllocation(
      Hello hello, long session, String nodeKey, int cachedHost, String peer) throws WireException {
    if (hello.lease == 0) {
      // A client without a lease could never be found dead: its quota is nothing.
      throw new WireException(
          ErrorCode.QUOTA_EXCEEDED,
          peer,
          "task "
              + hello.taskId
              + " named no lease in its HELLO (lease 0), so it may hold no chunk");
    }
    if (nodeKey.isEmpty()) {
      return new ChunkOwner(hello.lease, hello.pid, 0, session);
    }
    int host = cachedHost;
    if (host <= 0 || !nodeKey.equals(pool.hostName(host))) {
      try {
        host = pool.hostId(nodeKey);
      } catch (IOException e) {
        throw new WireException(ErrorCode.POOL_FULL, peer, e.getMessage());
      }
    }
    return new ChunkOwner(hello.lease, hello.pid, host, session);
  }

  /** The owner of this client's existing chunks, or null when its node holds none here. */
  ChunkOwner existingOwner(Hello hello, long session, String nodeKey, int cachedHost) {
    if (hello.lease == 0) {
      return null;
    }
    if (nodeKey.isEmpty()) {
      return new ChunkOwner(hello.lease, hello.pid, 0, session);
    }
    int host =
        cachedHost > 0 && nodeKey.equals(pool.hostName(cachedHost))
            ? cachedHost
            : pool.findHostId(nodeKey);
    return host == 0 ? null : new ChunkOwner(hello.lease, hello.pid, host, session);
  }

  List<ChunkHandle> allocate(ChunkOwner owner, int count, String peer) throws IOException {
    if (count <= 0 || count > MAX_ALLOCATE) {
      throw new WireException(
          ErrorCode.MALFORMED_FRAME,
          peer,
          "ALLOCATE of " + count + " chunks (expected 1 to " + MAX_ALLOCATE + ")");
    }
    List<PoolChunk> chunks;
    try (QuotaLedger.Reservation reservation =
        ledger.reserve(owner, count, quotaChunks, nodeQuotaChunks)) {
      if (reservation.granted() == 0) {
        throw overQuota(owner, reservation, peer);
      }
      try {
        chunks = pool.allocate(owner, reservation.granted());
      } catch (IOException e) {
        throw new WireException(ErrorCode.POOL_FULL, peer, "pool busy: " + e.getMessage());
      }
      reservation.keep(chunks.size());
    }
    if (chunks.isEmpty()) {
      throw new WireException(
          ErrorCode.POOL_FULL, peer, "no free chunk in the pool of " + endpoint);
    }
    List<ChunkHandle> handles = new ArrayList<>(chunks.size());
    for (PoolChunk chunk : chunks) {
      handles.add(new ChunkHandle(chunk.index(), chunk.generation()));
    }
    return handles;
  }

  private WireException overQuota(
      ChunkOwner owner, QuotaLedger.Reservation reservation, String peer) {
    if (reservation.refusedBy() == QuotaLedger.Limit.SESSION) {
      return new WireException(
          ErrorCode.QUOTA_EXCEEDED,
          peer,
          "the session holds "
              + reservation.held()
              + " chunks, its quota of "
              + quotaChunks
              + " (sponge.server.quota.per.task) on node "
              + endpoint);
    }
    return new WireException(
        ErrorCode.QUOTA_EXCEEDED,
        peer,
        "node "
            + pool.hostName(owner.host())
            + " holds "
            + reservation.held()
            + " chunks, its quota of "
            + nodeQuotaChunks
            + " (sponge.server.quota.per.node) on node "
            + endpoint);
  }

  void write(ChunkOwner owner, ChunkRange range, ByteBuf data, String peer) throws WireException {
    ByteBuffer target = writeTarget(owner, range, peer);
    try {
      data.getBytes(data.readerIndex(), target);
      written(range);
    } finally {
      unpin(range);
    }
  }

  /**
   * The pool bytes of {@code range} (position 0, limit its length) for a WRITE's data, after the
   * checks of {@link #write}; {@link #written} records them once they are in, before {@link
   * #unpin}. A WRITE that starts past what the session has written to the chunk zeroes the gap
   * first, so that no earlier owner's bytes come to lie below the written length.
   */
  ByteBuffer writeTarget(ChunkOwner owner, ChunkRange range, String peer) throws WireException {
    pinOwned(owner, range, peer);
    ByteBuffer chunk = pool.chunkBuffer(range.chunk.index);
    int written = pool.writtenLength(poolChunk(range.chunk));
    if (written != WrittenExtents.UNKNOWN && range.offset > written) {
      chunk.position(written).limit(range.offset);
      chunk.put(new byte[range.offset - written]);
      chunk.clear();
    }
    chunk.position(range.offset).limit(range.offset + range.length);
    return chunk.slice();
  }

  /** Throws NO_SUCH_CHUNK unless {@code owner} owns the chunk of {@code range}. */
  void checkOwned(ChunkOwner owner, ChunkRange range, String peer) throws WireException {
    if (owner == null) {
      throw noSuchChunk(range.chunk, peer);
    }
    requireOwned(owner, range.chunk, peer);
  }

  /**
   * A WRITE's data is in the pool: the session's from now on. Called while the chunk is still
   * pinned, so a FREE that waits for the pin lends the chunk again only after this.
   */
  void written(ChunkRange range) {
    pool.written(poolChunk(range.chunk), range.offset + range.length);
    metrics.bytesWritten.inc(range.length);
  }

  /**
   * A read-only view of the range, sent without copying; the chunk stays pinned until {@link
   * #unpin}, to be called once the view is sent or dropped. Bytes past what the session has written
   * to the chunk are answered as zeros (in a copy: only a peer reading what it never wrote gets
   * one), never as the bytes an earlier owner left there.
   */
  ByteBuffer read(ChunkOwner owner, ChunkRange range, String peer) throws WireException {
    pinOwned(owner, range, peer);
    ByteBuffer view = pool.chunkBuffer(range.chunk.index).asReadOnlyBuffer();
    view.position(range.offset).limit(range.offset + range.length);
    metrics.bytesRead.inc(range.length);
    int written = pool.writtenLength(poolChunk(range.chunk));
    if (written == WrittenExtents.UNKNOWN || range.offset + range.length <= written) {
      return view.slice();
    }
    ByteBuffer copy = ByteBuffer.allocate(range.length);
    if (written > range.offset) {
      view.limit(written);
      copy.put(view);
    }
    return copy.clear();
  }

  /** Ends the I/O of a {@link #read} or {@link #writeTarget} on the chunk of {@code range}. */
  void unpin(ChunkRange range) {
    pins.unpin(range.chunk.index);
  }

  /**
   * Frees the chunks {@code owner} holds among {@code handles}; a pinned one is gone for the client
   * at once and returns to the pool after its last pin.
   */
  int free(ChunkOwner owner, List<ChunkHandle> handles) throws IOException {
    if (owner == null || handles.isEmpty()) {
      return 0;
    }
    List<PoolChunk> chunks = new ArrayList<>(handles.size());
    for (ChunkHandle handle : handles) {
      chunks.add(poolChunk(handle));
    }
    return ledger.free(
        owner,
        () ->
            pins.release(
                chunks,
                PoolChunk::index,
                chunk -> pool.isOwnedBy(chunk, owner),
                some -> pool.free(owner, some)));
  }

  ServerStats stats() {
    return new ServerStats(
        pool.chunkSize(),
        pool.chunkCount(),
        pool.freeChunks(),
        pool.stats().reclaimed(),
        endpoint,
        rack);
  }

  /** Whether each lease of a process of this node is held, by its file beside the pool. */
  boolean[] liveness(long[] leases) {
    boolean[] alive = new boolean[leases.length];
    for (int i = 0; i < alive.length; i++) {
      alive[i] = pool.leases().isAlive(leases[i]);
    }
    return alive;
  }

  int chunkSize() {
    return pool.chunkSize();
  }

  String endpoint() {
    return endpoint;
  }

  private static PoolChunk poolChunk(ChunkHandle handle) {
    return new PoolChunk(handle.index, handle.generation);
  }

  /** Checks {@code range} and pins its chunk if {@code owner} owns it; pin first, then check. */
  private void pinOwned(ChunkOwner owner, ChunkRange range, String peer) throws WireException {
    range.checkWithin(pool.chunkSize(), peer);
    if (owner == null || !pins.pin(range.chunk.index)) {
      throw noSuchChunk(range.chunk, peer);
    }
    try {
      requireOwned(owner, range.chunk, peer);
    } catch (WireException | RuntimeException e) {
      pins.unpin(range.chunk.index);
      throw e;
    }
  }

  private void requireOwned(ChunkOwner owner, ChunkHandle chunk, String peer) throws WireException {
    if (pins.isReleased(chunk.index) || !pool.isOwnedBy(poolChunk(chunk), owner)) {
      throw noSuchChunk(chunk, peer);
    }
  }

  private static WireException noSuchChunk(ChunkHandle chunk, String peer) {
    return new WireException(ErrorCode.NO_SUCH_CHUNK, peer, chunk + " is not this session's");
  }
}
