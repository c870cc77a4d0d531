package org.spongefiles.core.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.tier.FileKey;
import org.spongefiles.core.tier.StoredChunk;
import org.spongefiles.core.tier.Tier;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.WireException;

/**
 * Memory of other nodes' sponge servers as a tier. A chunk tries the servers this task already uses
 * first (fewer machines per task, fewer ways to fail), then the source's candidates in order; a
 * server that refuses (full, over quota) or fails is skipped for a while (but not for the chunks
 * this task holds reserved there) and the next is tried; when none takes the chunk the chain falls
 * through to disk. A server that dies while a chunk is written to it costs nothing: the chunk is
 * still in the writer's buffer and goes elsewhere. Chunks are allocated in small batches, and each
 * batch after the first rides along with a WRITE, so a chunk costs one round trip.
 */
public final class RemoteTier implements Tier {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteTier.class);

  private final ServerSource source;
  private final ConnectionPool connections;
  private final RemoteSettings settings;
  private final ChunkCipher cipher;
  private final RemoteUnavailable unavailable;
  private final LinkedHashSet<ServerAddress> used = new LinkedHashSet<>();
  private final Map<ServerAddress, Deque<ChunkHandle>> reserved = new HashMap<>();
  private final Map<ServerAddress, Long> avoidUntil = new ConcurrentHashMap<>();
  private final Map<ServerAddress, Long> failedUntil = new ConcurrentHashMap<>();
  private final Map<ServerAddress, String> lastProblem = new ConcurrentHashMap<>();

  public RemoteTier(ServerSource source, ConnectionPool connections, RemoteSettings settings) {
    this(source, connections, settings, RemoteUnavailable.silent());
  }

  /** A remote tier that reports through {@code unavailable} when servers refuse the handshake. */
  public RemoteTier(
      ServerSource source,
      ConnectionPool connections,
      RemoteSettings settings,
      RemoteUnavailable unavailable) {
    this.unavailable = unavailable;
    this.source = source;
    this.connections = connections;
    this.settings = settings;
    this.cipher = settings.encrypt ? new ChunkCipher() : null;
  }

  @Override
  public TierKind kind() {
    return TierKind.REMOTE;
  }

  @Override
  public StoredChunk store(FileKey file, ByteBuffer data) throws IOException {
    return store(file, data, () -> {});
  }

  /** Runs {@code meanwhile} while a server copies the chunk in and before it answers. */
  @Override
  public StoredChunk store(FileKey file, ByteBuffer data, Runnable meanwhile) throws IOException {
    int length = data.remaining();
    ChunkCipher.Sealed sealed = cipher == null ? null : cipher.seal(file, data);
    ByteBuffer payload = sealed == null ? data : sealed.ciphertext;
    for (ServerAddress server : order()) {
      if (isAvoided(server) && !holdsReserve(server)) {
        continue; // a refusal's back-off does not apply to chunks this task already holds there
      }
      RemoteConnection connection = null;
      try {
        connection = connections.borrow(server);
        if (connection.chunkSize() < length) {
          avoid(
              server,
              settings.failureBackoffMillis,
              "its chunks hold " + connection.chunkSize() + " bytes, not " + length);
          continue;
        }
        Reservation reservation = reservation(server, connection);
        ChunkHandle handle = reservation.handle;
        if (reservation.last) {
          connection.writeAndAllocate(
              handle,
              0,
              payload.duplicate(),
              settings.allocateBatch,
              more -> reserve(server, more),
              meanwhile);
        } else {
          connection.write(handle, 0, payload.duplicate(), meanwhile);
        }
        synchronized (this) {
          used.add(server);
        }
        source.stored(server);
        lastProblem.remove(server);
        return new RemoteStoredChunk(
            this,
            file,
            server,
            handle,
            length,
            sealed == null ? null : sealed.nonce,
            sealed == null ? null : sealed.tag);
      } catch (WireException e) {
        if (e.code().isRefusal()) {
          source.reportFull(server);
          avoid(server, settings.refusalBackoffMillis, e.reason());
          LOG.debug("Server {} declined a chunk of {}: {}", server, file, e.reason());
        } else {
          failed(server, file, e);
        }
      } catch (IOException | RuntimeException e) {
        failed(server, file, e);
      } finally {
        if (connection != null) {
          connections.giveBack(connection);
        }
      }
    }
    return null;
  }

  /**
   * Servers this task already uses that still have clear room first (affinity), then the source's
   * other candidates with clear room, then the crowded ones (they may still take a chunk): a task
   * stays on few machines, but not on a nearly full one while others have room.
   */
  private List<ServerAddress> order() {
    List<ServerAddress> affine;
    synchronized (this) {
      affine = new ArrayList<>(used);
    }
    LinkedHashSet<ServerAddress> roomy = new LinkedHashSet<>();
    LinkedHashSet<ServerAddress> crowded = new LinkedHashSet<>();
    for (ServerAddress server : affine) {
      (source.hasRoom(server) ? roomy : crowded).add(server);
    }
    for (ServerAddress server : source.candidates()) {
      (source.hasRoom(server) ? roomy : crowded).add(server);
    }
    crowded.removeAll(roomy);
    List<ServerAddress> order = new ArrayList<>(roomy);
    order.addAll(crowded);
    return order;
  }

  /** A chunk reserved on a server for the next WRITE; {@code last}: the reserve is now empty. */
  private static final class Reservation {
    final ChunkHandle handle;
    final boolean last;

    Reservation(ChunkHandle handle, boolean last) {
      this.handle = handle;
      this.last = last;
    }
  }

  /**
   * A chunk from the task's reserve on {@code server}, allocating a batch when the reserve is
   * empty. With batches of more than one chunk, the WRITE that takes the last chunk of the reserve
   * refills it ({@link RemoteConnection#writeAndAllocate}), so only the first chunk on a server, or
   * one after a refusal, waits for an ALLOCATE of its own. Batches of one keep nothing in reserve.
   */
  private Reservation reservation(ServerAddress server, RemoteConnection connection)
      throws IOException {
    synchronized (this) {
      Deque<ChunkHandle> handles = reserved.get(server);
      if (handles != null && !handles.isEmpty()) {
        ChunkHandle handle = handles.pollFirst();
        return new Reservation(handle, handles.isEmpty() && settings.allocateBatch > 1);
      }
    }
    List<ChunkHandle> batch;
    try {
      batch = connection.allocate(settings.allocateBatch);
    } catch (WireException e) {
      // Another thread's WRITE may have refilled the reserve while this ALLOCATE was refused
      // (the refill took the room): the task's own chunks are not refused to it.
      ChunkHandle own = e.code().isRefusal() ? pollReserve(server) : null;
      if (own == null) {
        throw e;
      }
      return new Reservation(own, false);
    }
    if (batch.isEmpty()) {
      throw new IOException("server " + server + " allocated no chunk");
    }
    reserve(server, batch.subList(1, batch.size()));
    return new Reservation(batch.get(0), batch.size() == 1 && settings.allocateBatch > 1);
  }

  private synchronized ChunkHandle pollReserve(ServerAddress server) {
    Deque<ChunkHandle> handles = reserved.get(server);
    return handles == null ? null : handles.pollFirst();
  }

  private synchronized boolean holdsReserve(ServerAddress server) {
    Deque<ChunkHandle> handles = reserved.get(server);
    return handles != null && !handles.isEmpty();
  }

  private synchronized void reserve(ServerAddress server, List<ChunkHandle> handles) {
    reserved.computeIfAbsent(server, s -> new ArrayDeque<>()).addAll(handles);
  }

  private void failed(ServerAddress server, FileKey file, Exception e) {
    if (e instanceof WireException && ((WireException) e).code() == ErrorCode.AUTH_FAILED) {
      unavailable.report(
          connections.hasSecret()
              ? RemoteUnavailable.Reason.AUTH_FAILED
              : RemoteUnavailable.Reason.NO_SECRET,
          connections.hasSecret()
              ? "sponge server " + server + " refused the handshake: " + e.getMessage()
              : "sponge.auth.secret.file is not set and sponge server "
                  + server
                  + " requires the cluster secret");
    } else {
      LOG.warn(
          "Sponge server {} failed while storing a chunk of {}; trying the next place: {}",
          server,
          file,
          e.getMessage());
    }
    connections.forget(server);
    synchronized (this) {
      used.remove(server);
      reserved.remove(server); // unknown state; the server reclaims them when this task ends
    }
    avoid(server, settings.failureBackoffMillis, "failed: " + e.getMessage());
    failedUntil.put(server, System.currentTimeMillis() + settings.failureBackoffMillis);
  }

  private void avoid(ServerAddress server, long millis, String why) {
    avoidUntil.put(server, System.currentTimeMillis() + millis);
    lastProblem.put(server, why);
  }

  private boolean isAvoided(ServerAddress server) {
    return isBefore(avoidUntil, server);
  }

  /**
   * Whether the server failed (did not answer) within the failure back-off. A server that refused a
   * chunk (full, over quota) answers: frees still go to it.
   */
  private boolean hasFailedRecently(ServerAddress server) {
    return isBefore(failedUntil, server);
  }

  private static boolean isBefore(Map<ServerAddress, Long> deadlines, ServerAddress server) {
    Long until = deadlines.get(server);
    if (until == null) {
      return false;
    }
    if (System.currentTimeMillis() >= until) {
      deadlines.remove(server, until);
      return false;
    }
    return true;
  }

  /**
   * Reads part of a remote chunk. A kept connection can have died while idle (the server was
   * restarted: its pool, and so the chunk, outlived it), so a read that fails on the connection,
   * rather than with an answer of the server, is tried once more on a new one.
   */
  void read(ServerAddress server, ChunkHandle handle, int offset, ByteBuffer dst)
      throws IOException {
    int start = dst.position();
    try {
      readOnce(server, handle, offset, dst);
    } catch (IOException e) {
      if (e instanceof WireException && !isConnectionLoss(((WireException) e).code())) {
        throw e; // the server answered: asking again would get the same answer
      }
      connections.forget(server);
      dst.position(start);
      LOG.info("Reading from {} failed ({}); trying a new connection", server, e.getMessage());
      readOnce(server, handle, offset, dst);
    }
  }

  private static boolean isConnectionLoss(ErrorCode code) {
    return code == ErrorCode.CONNECTION || code == ErrorCode.SHUTTING_DOWN;
  }

  private void readOnce(ServerAddress server, ChunkHandle handle, int offset, ByteBuffer dst)
      throws IOException {
    RemoteConnection connection = connections.borrow(server);
    try {
      connection.read(handle, offset, dst);
    } finally {
      connections.giveBack(connection);
    }
  }

  ChunkCipher cipher() {
    return cipher;
  }

  @Override
  public void delete(FileKey file, List<StoredChunk> chunks) {
    if (cipher != null) {
      cipher.forget(file);
    }
    Map<ServerAddress, List<ChunkHandle>> byServer = new LinkedHashMap<>();
    for (StoredChunk chunk : chunks) {
      RemoteStoredChunk remote = (RemoteStoredChunk) chunk;
      byServer.computeIfAbsent(remote.server(), s -> new ArrayList<>()).add(remote.handle());
    }
    byServer.forEach(this::free);
  }

  private void free(ServerAddress server, List<ChunkHandle> handles) {
    if (handles.isEmpty()) {
      return;
    }
    if (hasFailedRecently(server)) {
      // It failed recently: don't make every delete wait for its timeouts. The server frees
      // the chunks of this task once the task's process is gone.
      LOG.debug("Not freeing {} chunk(s) on {}, which failed recently", handles.size(), server);
      return;
    }
    RemoteConnection connection = null;
    try {
      connection = connections.borrow(server);
      connection.free(handles);
    } catch (IOException e) {
      // The server reclaims them once this task's process is gone.
      LOG.warn("Could not free {} chunk(s) on {}: {}", handles.size(), server, e.getMessage());
    } finally {
      if (connection != null) {
        connections.giveBack(connection);
      }
    }
  }

  /** Servers this task has chunks on, in the order first used. */
  public synchronized List<ServerAddress> serversInUse() {
    return new ArrayList<>(used);
  }

  @Override
  public String remaining() {
    List<ServerAddress> all = new ArrayList<>(source.candidates());
    if (all.isEmpty()) {
      return "no server has room (" + source + ")";
    }
    StringBuilder text = new StringBuilder();
    for (ServerAddress server : all) {
      String problem = lastProblem.get(server);
      text.append(text.length() == 0 ? "" : ", ")
          .append(server)
          .append(problem == null ? " not tried" : " " + problem);
    }
    return text.toString();
  }

  /** Frees chunks reserved but not used, and closes the connections and the source. */
  @Override
  public void close() {
    Map<ServerAddress, Deque<ChunkHandle>> leftovers;
    synchronized (this) {
      leftovers = new HashMap<>(reserved);
      reserved.clear();
    }
    leftovers.forEach((server, handles) -> free(server, new ArrayList<>(handles)));
    connections.close();
    source.close();
  }

  @Override
  public String toString() {
    return "remote (" + source + ")";
  }
}
