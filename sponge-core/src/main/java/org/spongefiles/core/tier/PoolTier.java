package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.PoolChunk;
import org.spongefiles.core.pool.SharedPool;

/**
 * The node's shared memory pool as a tier. Writers normally {@link #reserve} a chunk before they
 * fill a buffer for it, and the chain copies the buffer in when it is full; {@link #store} reserves
 * and copies at once, when a chunk written behind finds the pool has room again.
 */
public final class PoolTier implements Tier {
  private final SharedPool pool;
  private final ChunkOwner owner;

  public PoolTier(SharedPool pool, ChunkOwner owner) {
    this.pool = pool;
    this.owner = owner;
  }

  /** A free chunk, or null when the pool is full. */
  public PoolStoredChunk reserve() throws IOException {
    PoolChunk chunk = pool.allocateOne(owner);
    return chunk == null ? null : new PoolStoredChunk(pool, chunk);
  }

  @Override
  public TierKind kind() {
    return TierKind.POOL;
  }

  @Override
  public StoredChunk store(FileKey file, ByteBuffer data) throws IOException {
    PoolStoredChunk chunk = reserve();
    if (chunk == null) {
      return null;
    }
    fill(chunk, data);
    return chunk;
  }

  /**
   * Copies {@code data} (position to limit) into {@code chunk}, reserved from this tier; when the
   * copy fails the chunk is freed.
   */
  public void fill(PoolStoredChunk chunk, ByteBuffer data) throws IOException {
    try {
      chunk.write(data);
    } catch (IOException | RuntimeException e) {
      try {
        release(chunk);
      } catch (IOException | RuntimeException freeing) {
        e.addSuppressed(freeing);
      }
      throw e;
    }
  }

  @Override
  public void delete(FileKey file, List<StoredChunk> chunks) throws IOException {
    List<PoolChunk> handles = new ArrayList<>(chunks.size());
    for (StoredChunk chunk : chunks) {
      handles.add(((PoolStoredChunk) chunk).handle());
    }
    pool.free(owner, handles);
  }

  /** Frees a chunk that was reserved but never used. */
  public void release(PoolStoredChunk chunk) throws IOException {
    pool.free(owner, List.of(chunk.handle()));
  }

  /** Frees every chunk the task still holds in the pool: the sweep at task close. */
  public int releaseAll() throws IOException {
    return pool.freeAll(owner);
  }

  public SharedPool pool() {
    return pool;
  }

  @Override
  public String remaining() {
    return pool.freeChunks()
        + " of "
        + pool.chunkCount()
        + " chunks free in "
        + pool.metadataFile();
  }

  @Override
  public void close() {
    pool.close();
  }
}
