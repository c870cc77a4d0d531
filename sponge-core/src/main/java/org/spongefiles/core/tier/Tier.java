package org.spongefiles.core.tier;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * One place chunks can be stored. The {@link TierChain} tries tiers nearest first; a tier answers
 * {@code null} when it has no room, so the chain falls through to the next.
 */
public interface Tier extends Closeable {

  TierKind kind();

  /**
   * Stores the bytes between {@code data}'s position and limit as one chunk of {@code file}.
   *
   * @return the stored chunk, or null when this tier has no room for it
   * @throws IOException when the tier failed; the chain then tries the next tier
   */
  StoredChunk store(FileKey file, ByteBuffer data) throws IOException;

  /**
   * {@link #store(FileKey, ByteBuffer)}, and a tier that waits on something outside the task (a
   * server's answer) may run {@code meanwhile} while it waits, once per attempt (the remote tier
   * runs it for each server it tries). The caller cannot tell whether it ran, so it must be safe to
   * run again.
   */
  default StoredChunk store(FileKey file, ByteBuffer data, Runnable meanwhile) throws IOException {
    return store(file, data);
  }

  /** Called once {@code file} has all its chunks: a tier may finish what it kept open. */
  default void sealed(FileKey file) throws IOException {}

  /** Releases {@code chunks} of {@code file} (this tier's ones) and anything kept for the file. */
  void delete(FileKey file, List<StoredChunk> chunks) throws IOException;

  /** What this tier can still take, for error messages ("12 of 256 chunks free"). */
  String remaining();

  /** Releases what the tier holds for the task (connections, directories). */
  @Override
  void close() throws IOException;
}
