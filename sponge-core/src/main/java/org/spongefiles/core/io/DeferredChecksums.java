package org.spongefiles.core.io;

import java.nio.ByteBuffer;

/**
 * The CRC32C blocks of one chunk ({@link Checksums#compute}), computed once, when first needed. As
 * a {@link Runnable} it is work a tier may do while it waits on a peer: a chunk sent to a sponge
 * server is checksummed while the server copies it into its pool, not before it is sent.
 */
public final class DeferredChecksums implements Runnable {
  private final ByteBuffer data;
  private final int blockSize;
  private int[] crcs;

  /** Covers {@code data}'s bytes between its position and limit now; the bytes must not change. */
  public DeferredChecksums(ByteBuffer data, int blockSize) {
    this.data = data.duplicate();
    this.blockSize = blockSize;
  }

  /** Computes the checksums if they are not computed yet. */
  @Override
  public void run() {
    get();
  }

  /** The checksums, computed on the first call. */
  public int[] get() {
    if (crcs == null) {
      crcs = Checksums.compute(data, blockSize);
    }
    return crcs;
  }

  /** Whether the checksums were computed already. */
  public boolean isComputed() {
    return crcs != null;
  }
}
