package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.spongefiles.core.pool.PoolChunk;
import org.spongefiles.core.pool.SharedPool;

/**
 * A chunk in the node's shared pool. Its bytes are copied in and out through the pool's segment
 * files ({@link SharedPool#write}); the generation check after each read proves the chunk was still
 * ours while we copied.
 */
public final class PoolStoredChunk implements StoredChunk {
  private final SharedPool pool;
  private final PoolChunk handle;
  private int length;

  PoolStoredChunk(SharedPool pool, PoolChunk handle) {
    this.pool = pool;
    this.handle = handle;
  }

  /** Copies {@code data} (position to limit) in from the chunk's start: its bytes from now on. */
  public void write(ByteBuffer data) throws IOException {
    int bytes = data.remaining();
    pool.write(handle.index(), 0, data);
    length = bytes;
  }

  public PoolChunk handle() {
    return handle;
  }

  @Override
  public TierKind tier() {
    return TierKind.POOL;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public void read(long offset, ByteBuffer dst) throws IOException {
    if (offset < 0 || dst.remaining() > length - offset) {
      throw new IndexOutOfBoundsException(
          "bytes "
              + offset
              + " to "
              + (offset + dst.remaining())
              + " of "
              + length
              + " in "
              + this);
    }
    pool.read(handle.index(), (int) offset, dst);
    if (!pool.isCurrent(handle)) {
      throw new IOException(
          describe()
              + " no longer belongs to this task (now generation "
              + pool.generation(handle.index())
              + "): it was reclaimed as an orphan, so its bytes cannot be trusted");
    }
  }

  @Override
  public String describe() {
    return handle + " of " + pool.metadataFile();
  }
}
