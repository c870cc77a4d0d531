package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.spongefiles.core.pool.PoolChunk;
import org.spongefiles.core.pool.SharedPool;

/**
 * A chunk in the node's shared pool. Its bytes are written and read in place through the mapping;
 * the generation check after each copy proves the chunk was still ours while we copied.
 */
public final class PoolStoredChunk implements StoredChunk {
  private final SharedPool pool;
  private final PoolChunk handle;
  private final ByteBuffer bytes;
  private int length;

  PoolStoredChunk(SharedPool pool, PoolChunk handle) {
    this.pool = pool;
    this.handle = handle;
    this.bytes = pool.chunkBuffer(handle.index());
  }

  /** The writable chunk, position 0, limit the chunk size: the writer fills it in place. */
  public ByteBuffer writeBuffer() {
    return bytes;
  }

  /** Records how many bytes the writer put in the chunk. */
  public void seal(int bytesWritten) {
    this.length = bytesWritten;
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
  public ByteBuffer view() {
    ByteBuffer view = bytes.asReadOnlyBuffer();
    view.position(0).limit(length);
    return view;
  }

  @Override
  public void read(long offset, ByteBuffer dst) throws IOException {
    ByteBuffer view = view();
    view.position((int) offset).limit((int) offset + dst.remaining());
    dst.put(view);
    checkValid();
  }

  @Override
  public void checkValid() throws IOException {
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
