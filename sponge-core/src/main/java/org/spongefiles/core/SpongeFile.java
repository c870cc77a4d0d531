package org.spongefiles.core;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.spongefiles.core.io.Checksums;
import org.spongefiles.core.io.DeferredChecksums;
import org.spongefiles.core.tier.FileKey;
import org.spongefiles.core.tier.Placement;
import org.spongefiles.core.tier.StoredChunk;
import org.spongefiles.core.tier.TierKind;

/**
 * A task-private, write-once logical byte array made of chunks, each stored in the nearest tier
 * with room. Write it once through {@link #output()}, close that stream, then read it any number of
 * times through {@link #input()}, and finally {@link #delete()} it (the task's close deletes
 * whatever is left).
 *
 * <p>Chunks that land in the node's pool are copied in and out by the writer's and the reader's own
 * threads; the others are written behind the writer by the task's I/O threads (or inline, or to the
 * local disk, as the task's {@link org.spongefiles.core.tier.PlacementPolicy} says) and read ahead
 * of the reader. The chunk list (where each chunk is and its checksums) is private to this object,
 * like an inode that no one else sees.
 */
public final class SpongeFile {
  private final SpongeTask task;
  private final FileKey key;
  private final List<ChunkRecord> chunks = new ArrayList<>();
  private volatile SpongeFileState state = SpongeFileState.WRITING;
  private SpongeOutputStream output;
  private long length;

  /** Stores of chunks written behind that may not have finished (guarded by this). */
  private final List<CompletableFuture<Void>> storing = new ArrayList<>();

  /**
   * Completes when the last chunk written behind has been handed on: stored, sent to a sponge
   * server, or taken by the closing writer (guarded by this).
   */
  private CompletableFuture<Void> lastHandedOn = CompletableFuture.completedFuture(null);

  /** Chunks written behind whose store no I/O thread has started yet (guarded by this). */
  private final List<QueuedChunk> queued = new ArrayList<>();

  private volatile IOException writeFailure;

  SpongeFile(SpongeTask task, FileKey key) {
    this.task = task;
    this.key = key;
  }

  /** The name given at creation. */
  public String name() {
    return key.name();
  }

  public SpongeFileState state() {
    return state;
  }

  /**
   * The file's only output stream; closing it finishes the file and makes it readable. Calling this
   * again while the file is being written returns the same stream.
   *
   * @throws SpongeFileStateException when the file was already written, failed or was deleted
   */
  public synchronized OutputStream output() throws SpongeFileStateException {
    requireState(SpongeFileState.WRITING, "write");
    if (output == null) {
      output = new SpongeOutputStream(this, task);
    }
    return output;
  }

  /** A new reader with a read-ahead window of one chunk. */
  public SpongeInputStream input() throws IOException {
    return input(task.chunkSize());
  }

  /**
   * A new reader whose windows are {@code bufferSize} bytes (rounded to whole checksum blocks, at
   * most a chunk); it holds two such windows (on chunks outside the pool, one is read ahead).
   *
   * @throws SpongeFileStateException when the file is not closed yet, failed or was deleted
   */
  public SpongeInputStream input(int bufferSize) throws IOException {
    ChunkRecord[] records;
    long size;
    synchronized (this) {
      requireState(SpongeFileState.CLOSED, "read");
      records = chunks.toArray(new ChunkRecord[0]);
      size = length;
    }
    return new SpongeInputStream(this, task, records, size, bufferSize);
  }

  /** Bytes in the file; while it is being written, the bytes written so far. */
  public synchronized long length() {
    if (state == SpongeFileState.WRITING && output != null) {
      return output.bytesWritten();
    }
    return length;
  }

  /** Where each chunk is, in file order (chunks still being written behind are not listed). */
  public synchronized List<ChunkInfo> chunks() {
    List<ChunkInfo> infos = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      ChunkRecord record = chunks.get(i);
      if (record != null) {
        infos.add(
            new ChunkInfo(
                i,
                record.chunk.tier(),
                record.length(),
                record.crcs != null,
                record.chunk.describe()));
      }
    }
    return infos;
  }

  /**
   * Releases every chunk of the file and forgets it. Deleting a deleted file does nothing; any
   * other use of a deleted file throws {@link SpongeFileStateException}.
   */
  public void delete() throws IOException {
    SpongeOutputStream writer;
    CompletableFuture<Void> pending;
    synchronized (this) {
      if (state == SpongeFileState.DELETED) {
        return;
      }
      state = SpongeFileState.DELETED;
      writer = output;
      pending = storingNow();
    }
    if (writer != null) {
      writer.abandon();
    }
    awaitQuietly(pending);
    List<StoredChunk> stored = new ArrayList<>();
    synchronized (this) {
      for (ChunkRecord record : chunks) {
        if (record != null) {
          stored.add(record.chunk);
        }
      }
      chunks.clear();
    }
    try {
      task.tiers().delete(key, stored);
    } finally {
      task.forget(this);
    }
  }

  FileKey key() {
    return key;
  }

  /** Records chunk {@code index}, which the writer's thread copied into the pool itself. */
  synchronized void addPlacedChunk(int index, StoredChunk chunk, int[] crcs) {
    setRecord(index, new ChunkRecord(chunk, crcs));
  }

  /**
   * Queues chunk {@code index} (the bytes between {@code buffer}'s position and limit) to be
   * checksummed and stored by the I/O threads. As many of the file's chunks are stored at once as
   * there are threads ({@code sponge.io.threads}), in file order: a chunk's store starts once the
   * chunk before it has been handed on, stored or sent to a sponge server, so a chunk waiting on a
   * server's answer does not hold back the next one, while chunks that go to the disk or DFS tier
   * are appended to the file's backing file in file order. The caller has counted the buffer in
   * flight; it is counted out when stored.
   */
  void writeBehind(int index, ByteBuffer buffer) {
    QueuedChunk chunk = new QueuedChunk(index, buffer);
    synchronized (this) {
      setRecord(index, null);
      queued.add(chunk);
      CompletableFuture<Void> previous = lastHandedOn;
      CompletableFuture<Void> handedOn = new CompletableFuture<>();
      lastHandedOn = handedOn;
      unfinishedStores()
          .add(
              CompletableFuture.runAsync(
                  () -> {
                    try {
                      // The previous chunk's task was queued first, so it runs or ran: no deadlock.
                      previous.join();
                      if (take(chunk)) {
                        try {
                          store(index, buffer, () -> handedOn.complete(null));
                        } finally {
                          task.buffers().endFlight(buffer);
                        }
                      }
                    } finally {
                      handedOn.complete(null);
                    }
                  },
                  task.io()));
    }
  }

  /** Completes when every store started so far has finished (guarded by this). */
  private CompletableFuture<Void> storingNow() {
    return CompletableFuture.allOf(unfinishedStores().toArray(new CompletableFuture<?>[0]));
  }

  /** The stores started and not finished yet, the finished ones dropped (guarded by this). */
  private List<CompletableFuture<Void>> unfinishedStores() {
    storing.removeIf(CompletableFuture::isDone);
    return storing;
  }

  /**
   * Takes {@code chunk} off the queue for whoever stores it: an I/O thread, or the closing writer
   * ({@link #overflowQueued}); false when the other one already took it.
   */
  private boolean take(QueuedChunk chunk) {
    if (!chunk.taken.compareAndSet(false, true)) {
      return false;
    }
    synchronized (this) {
      queued.remove(chunk);
    }
    return true;
  }

  /**
   * At close, when the policy overflows the queued chunks: stores every chunk still queued behind
   * the writer (its store not started) on the local disk in the writer's thread, so the writer
   * waits only for the stores already under way, not for a queue of chunks behind a slow link. A
   * chunk the disk does not take is stored through the tier chain here (inline: it is off the
   * queue).
   */
  private void overflowQueued() {
    List<QueuedChunk> mine = new ArrayList<>();
    synchronized (this) {
      mine.addAll(queued);
    }
    for (QueuedChunk chunk : mine) {
      if (!take(chunk)) {
        continue;
      }
      try {
        if (!storeOverflow(chunk.index, chunk.buffer)) {
          store(chunk.index, chunk.buffer);
        }
      } finally {
        task.buffers().endFlight(chunk.buffer);
      }
    }
  }

  /**
   * Whether none of the file's chunks is queued behind the writer waiting for an I/O thread to
   * start its store (stores under way do not count). Only the writer queues chunks, so the answer
   * holds until it queues another.
   */
  synchronized boolean nothingQueued() {
    return queued.isEmpty();
  }

  /**
   * Whether none of the file's chunks is queued or being stored behind the writer. Only the writer
   * queues chunks, so the answer holds until it queues another.
   */
  synchronized boolean writeBehindIdle() {
    return unfinishedStores().isEmpty();
  }

  /**
   * Stores chunk {@code index} through the tier chain in the caller's thread ({@link
   * Placement#INLINE}): the last chunk of a file with nothing behind it, whose closing writer would
   * only wait for an I/O thread.
   */
  void storeInline(int index, ByteBuffer buffer) {
    synchronized (this) {
      setRecord(index, null);
    }
    store(index, buffer);
  }

  /**
   * Stores chunk {@code index} on the local disk in the caller's thread ({@link
   * Placement#OVERFLOW}): a writer's chunk sealed while every write-behind buffer is taken, or one
   * still queued when it closes.
   *
   * @return false when the disk tier did not take it (or the file failed or was deleted); the
   *     caller then stores it as {@link Placement#OVERFLOW} says
   */
  boolean storeOverflow(int index, ByteBuffer buffer) {
    if (writeFailure != null || state() == SpongeFileState.DELETED) {
      return false;
    }
    StoredChunk stored = task.tiers().storeOverflow(key, index, buffer.duplicate());
    if (stored == null) {
      return false;
    }
    int[] crcs = Checksums.compute(buffer.duplicate(), task.checksumBlockSize());
    task.stats().chunkOverflowed();
    synchronized (this) {
      if (state != SpongeFileState.DELETED) {
        setRecord(index, new ChunkRecord(stored, crcs));
        return true;
      }
    }
    try {
      task.tiers().delete(key, List.of(stored));
    } catch (IOException e) {
      recordWriteFailure(e);
    }
    return true;
  }

  private void store(int index, ByteBuffer buffer) {
    store(index, buffer, () -> {});
  }

  /**
   * Stores chunk {@code index} through the tier chain; {@code sent} runs when a tier waits for a
   * sponge server that has the chunk's bytes (the chunk is on its way), if one does.
   */
  private void store(int index, ByteBuffer buffer, Runnable sent) {
    try {
      if (writeFailure != null || state() == SpongeFileState.DELETED) {
        return;
      }
      // Computed while a sponge server copies the chunk in, or here if no tier waited.
      DeferredChecksums checksums = new DeferredChecksums(buffer, task.checksumBlockSize());
      Runnable meanwhile =
          () -> {
            sent.run();
            checksums.run();
          };
      StoredChunk stored = task.tiers().store(key, index, buffer, meanwhile);
      int[] crcs = stored.tier() == TierKind.POOL && !task.poolChecksum() ? null : checksums.get();
      synchronized (this) {
        if (state == SpongeFileState.DELETED) {
          task.tiers().delete(key, List.of(stored));
          return;
        }
        setRecord(index, new ChunkRecord(stored, crcs));
      }
    } catch (IOException e) {
      recordWriteFailure(e);
    } catch (RuntimeException e) {
      recordWriteFailure(new IOException("Writing chunk " + index + " of " + key + " failed", e));
    }
  }

  /** A failure of a chunk written behind, reported to the writer at its next call. */
  IOException writeFailure() {
    return writeFailure;
  }

  /** Fails the file (the first failure wins): it ends FAILED when its writer closes. */
  void recordWriteFailure(Exception e) {
    if (writeFailure == null) {
      writeFailure =
          e instanceof IOException
              ? (IOException) e
              : new IOException("Writing " + key + " failed", e);
    }
  }

  /**
   * Waits for every chunk written behind, then makes the file readable.
   *
   * @throws IOException when a chunk could not be stored anywhere; the file is then FAILED
   */
  void finishWriting(long totalBytes) throws IOException {
    CompletableFuture<Void> pending;
    synchronized (this) {
      requireState(SpongeFileState.WRITING, "finish writing");
      pending = storingNow();
    }
    long start = System.nanoTime();
    try {
      if (task.placement().queuedAtClose() == Placement.OVERFLOW) {
        overflowQueued();
      }
      pending.get();
    } catch (InterruptedException e) {
      // The file cannot be finished: it ends FAILED, and delete() waits for what is in flight.
      Thread.currentThread().interrupt();
      recordWriteFailure(new InterruptedIOException("interrupted waiting for chunks of " + key));
    } catch (ExecutionException e) {
      recordWriteFailure(new IOException("Writing " + key + " failed", e.getCause()));
    } finally {
      task.stats().addBlockedWrite(System.nanoTime() - start);
    }
    synchronized (this) {
      requireState(SpongeFileState.WRITING, "finish writing");
      IOException failure = writeFailure;
      if (failure == null) {
        try {
          task.tiers().sealed(key);
        } catch (IOException e) {
          failure = e;
        }
      }
      if (failure != null) {
        state = SpongeFileState.FAILED;
        throw new IOException("Writing " + key + " failed: " + failure.getMessage(), failure);
      }
      length = totalBytes;
      state = SpongeFileState.CLOSED;
    }
  }

  /** Throws unless the file is in {@code expected}; the message names the file and its state. */
  void requireState(SpongeFileState expected, String attempted) throws SpongeFileStateException {
    SpongeFileState now = state;
    if (now != expected) {
      throw new SpongeFileStateException(key.toString(), attempted, now);
    }
  }

  private void setRecord(int index, ChunkRecord record) {
    while (chunks.size() <= index) {
      chunks.add(null);
    }
    chunks.set(index, record);
  }

  /**
   * Waits for the chunks written behind even when the thread is interrupted (the flag is restored
   * afterwards): releasing chunks an I/O thread is still writing would let it write into a chunk
   * that another task then owns.
   */
  private static void awaitQuietly(CompletableFuture<Void> pending) {
    boolean interrupted = false;
    while (true) {
      try {
        pending.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException e) {
        // The failure was recorded for the writer; deleting releases whatever was stored.
        break;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return key.toString();
  }

  /** A sealed chunk handed to the I/O threads, taken by exactly one storer. */
  private static final class QueuedChunk {
    final int index;
    final ByteBuffer buffer;
    final AtomicBoolean taken = new AtomicBoolean();

    QueuedChunk(int index, ByteBuffer buffer) {
      this.index = index;
      this.buffer = buffer;
    }
  }
}
