package org.spongefiles.core;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.io.Checksums;
import org.spongefiles.core.tier.Placement;
import org.spongefiles.core.tier.PlacementPolicy;
import org.spongefiles.core.tier.PoolStoredChunk;

/**
 * Writes a SpongeFile chunk by chunk, each into one of the task's write buffers. Where a full
 * buffer goes is the task's {@link PlacementPolicy}'s answer, which this stream asks with what it
 * knows (a pool chunk reserved, closing, the file's chunks behind it, the write-behind buffers
 * taken) and then carries out: copied into the reserved pool chunk, queued behind the writer,
 * stored inline, or overflowed to the local disk. Closing finishes the file.
 */
final class SpongeOutputStream extends OutputStream {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeOutputStream.class);

  private final SpongeFile file;
  private final SpongeTask task;
  private ByteBuffer target;
  private PoolStoredChunk poolChunk;
  private int chunkIndex = -1;
  // Read without the stream's lock by SpongeFile.length(), which holds the file's: taking this
  // stream's lock there would invert the writer's order (stream, then file) and could deadlock.
  private volatile long written;
  private boolean closed;

  SpongeOutputStream(SpongeFile file, SpongeTask task) {
    this.file = file;
    this.task = task;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    if (target == null || !target.hasRemaining()) {
      nextChunk();
    }
    target.put((byte) b);
    written++;
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    if ((off | len) < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException(
          "offset " + off + ", length " + len + " for an array of " + b.length);
    }
    while (len > 0) {
      if (target == null || !target.hasRemaining()) {
        nextChunk();
      }
      int n = Math.min(len, target.remaining());
      target.put(b, off, n);
      off += n;
      len -= n;
      written += n;
    }
  }

  /** Writes the bytes between {@code src}'s position and limit, advancing its position. */
  public synchronized void write(ByteBuffer src) throws IOException {
    while (src.hasRemaining()) {
      if (target == null || !target.hasRemaining()) {
        nextChunk();
      }
      int n = Math.min(src.remaining(), target.remaining());
      ByteBuffer slice = src.duplicate();
      slice.limit(slice.position() + n);
      target.put(slice);
      src.position(src.position() + n);
      written += n;
    }
  }

  long bytesWritten() {
    return written;
  }

  /**
   * Seals the current chunk and finishes the file; waits for chunks still being written. After a
   * failed write the file ends FAILED and this throws the failure.
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    file.requireState(SpongeFileState.WRITING, "close");
    closed = true;
    try {
      sealChunk(true);
    } catch (IOException | RuntimeException e) {
      file.recordWriteFailure(e);
    }
    file.finishWriting(written);
  }

  /** The file was deleted: give back the chunk or buffer being filled. */
  synchronized void abandon() {
    closed = true;
    releaseTarget();
  }

  private void releaseTarget() {
    if (poolChunk != null) {
      try {
        task.tiers().releaseInPlace(poolChunk);
      } catch (IOException e) {
        LOG.warn("Could not free {}: {}", poolChunk.describe(), e.toString());
      }
      poolChunk = null;
    }
    if (target != null) {
      task.buffers().giveBack(target);
    }
    target = null;
  }

  private void checkWritable() throws IOException {
    file.requireState(SpongeFileState.WRITING, "write");
    if (closed) {
      throw new SpongeFileStateException(file.toString(), "write", SpongeFileState.CLOSED);
    }
    IOException failure = file.writeFailure();
    if (failure != null) {
      throw new IOException("Writing " + file + " failed: " + failure.getMessage(), failure);
    }
  }

  /**
   * Seals the current chunk and takes the next target. A failure here fails the file: the writer
   * cannot know which of its bytes were kept, so every later call throws and the file ends FAILED.
   */
  private void nextChunk() throws IOException {
    checkWritable();
    try {
      sealChunk(false);
      takeTarget();
    } catch (IOException | RuntimeException e) {
      file.recordWriteFailure(e);
      throw e;
    }
  }

  private void takeTarget() throws IOException {
    chunkIndex++;
    long start = System.nanoTime();
    try {
      poolChunk =
          task.placement().reservesInPlace() ? task.tiers().reserveInPlace(file.key()) : null;
      target = task.buffers().take();
    } finally {
      task.stats().addBlockedWrite(System.nanoTime() - start);
    }
  }

  /**
   * Counts {@code sealed} in flight, waiting for a write-behind buffer if the policy says so; or,
   * when every buffer is taken and the policy overflows, waits only for a buffer due back within
   * {@code sponge.write.overflow.wait} and else stores the chunk on the local disk in this thread.
   * A file's last chunk that finds none of the file's chunks queued after that wait is stored
   * inline, as {@link PlacementPolicy#atSeal} places it when the file is idle at once: queued, the
   * closing writer would take it back to the disk ({@link PlacementPolicy#queuedAtClose}) before an
   * I/O thread started it. The buffer goes back to the pool if this throws.
   *
   * @return true when the chunk was stored here (the buffer is free again), false when it is
   *     counted in flight for {@link SpongeFile#writeBehind}
   */
  private boolean storedOrInFlight(ByteBuffer sealed, boolean last) throws IOException {
    try {
      if (task.buffers().tryBeginFlight(sealed)) {
        return false;
      }
      if (task.placement().whenBuffersTaken() == Placement.OVERFLOW) {
        if (task.buffers().awaitPlaceSoon(task.overflowWaitNanos())) {
          if (last && file.nothingQueued()) {
            file.storeInline(chunkIndex, sealed);
            return true;
          }
          if (task.buffers().tryBeginFlight(sealed)) {
            return false;
          }
        }
        if (file.storeOverflow(chunkIndex, sealed)) {
          return true;
        }
      }
      // Behind, or an overflow the disk declined: wait for a write-behind buffer.
      task.buffers().beginFlight(sealed);
      return false;
    } catch (IOException | RuntimeException e) {
      task.buffers().giveBack(sealed);
      throw e;
    }
  }

  private void sealChunk(boolean last) throws IOException {
    if (target == null) {
      return;
    }
    if (target.position() == 0) {
      releaseTarget();
      chunkIndex--;
      return;
    }
    // Whether the file is idle matters only when closing; asking takes the file's lock.
    Placement placement =
        task.placement().atSeal(poolChunk != null, last, last && file.writeBehindIdle());
    if (placement == Placement.IN_PLACE) {
      copyInPlace();
      return;
    }
    ByteBuffer sealed = target;
    target = null; // from here the buffer is the file's, or goes back to the pool below
    sealed.flip();
    long start = System.nanoTime();
    try {
      if (placement == Placement.INLINE) {
        file.storeInline(chunkIndex, sealed);
        task.buffers().giveBack(sealed);
      } else if (storedOrInFlight(sealed, last)) {
        task.buffers().giveBack(sealed);
      } else {
        file.writeBehind(chunkIndex, sealed);
      }
    } finally {
      task.stats().addBlockedWrite(System.nanoTime() - start);
    }
  }

  /** Copies the full buffer into the pool chunk reserved for it, in this thread. */
  private void copyInPlace() throws IOException {
    ByteBuffer data = target;
    data.flip();
    int[] crcs = task.poolChecksum() ? Checksums.compute(data, task.checksumBlockSize()) : null;
    PoolStoredChunk chunk = poolChunk;
    poolChunk = null; // placeInPlace frees it if the copy fails
    try {
      file.addPlacedChunk(chunkIndex, task.tiers().placeInPlace(chunk, data), crcs);
    } finally {
      releaseTarget();
    }
  }
}
