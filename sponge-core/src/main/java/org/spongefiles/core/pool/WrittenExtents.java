package org.spongefiles.core.pool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * How many leading bytes of each chunk its current owner has written since the chunk was lent to
 * it: what keeps one owner's bytes from the next. A chunk is never cleared; instead, bytes past its
 * written extent read as zeros ({@link SharedPool#read}, and the sponge server's READ), and a write
 * that starts past the extent first zeroes the gap, so every byte below the extent is the owner's
 * own or zero. Clearing a chunk when it is lent or freed would write its whole size once more per
 * use (a 1 MiB chunk written once and read once would move half as many bytes again); this costs
 * one atomic word per write and one read of it per read.
 *
 * <p>The extents live in a file beside the pool, {@code <name>.<pool id>.extents}, mapped by every
 * process that maps the pool, so an extent outlives a server restart as the chunk does and is the
 * same whichever process wrote the bytes. Each chunk has one 8-byte word at {@code 8 * chunk}:
 *
 * <pre>
 *   bits 63..32  low 32 bits of the chunk's generation when the extent was recorded
 *   bits 31..0   written extent in bytes
 * </pre>
 *
 * A word whose generation is not the chunk's is unknown (the chunk was lent by a build without
 * extents, or before this file existed), and the chunk reads as it is. The allocator records a new
 * extent of 0 before the chunk's owner entry names its owner ({@link OwnerTable#allocate}), so no
 * chunk lent by this build is ever unknown. A never-allocated chunk is generation 0 with extent 0:
 * it reads as zeros, as a fresh tmpfs file does, until written.
 */
public final class WrittenExtents {
  /** Returned by {@link #extent} when the extent recorded is not for the chunk's generation. */
  public static final int UNKNOWN = -1;

  private final MappedWords words;
  private final int chunkCount;

  private WrittenExtents(ByteBuffer words, int chunkCount) {
    this.words = new MappedWords(words);
    this.chunkCount = chunkCount;
  }

  /** The extents file of the pool with this name and id. */
  static Path file(Path dir, String name, long poolId) {
    return dir.resolve(name + "." + Long.toHexString(poolId) + ".extents");
  }

  /**
   * Maps the extents file of a pool, creating it (zero-filled, with {@code permissions}) when the
   * pool has none yet.
   */
  static WrittenExtents open(Path file, int chunkCount, String permissions) throws IOException {
    long size = 8L * chunkCount;
    if (!Files.exists(file)) {
      create(file, size, permissions);
    }
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      if (channel.size() != size) {
        throw new PoolFormatException(
            file,
            "holds " + channel.size() + " bytes, not 8 for each of " + chunkCount + " chunks");
      }
      MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
      return new WrittenExtents(mapped.order(ByteOrder.nativeOrder()), chunkCount);
    }
  }

  /** Extents of this process alone, for a pool whose directory does not take a new file. */
  static WrittenExtents inMemory(int chunkCount) {
    return new WrittenExtents(ByteBuffer.allocateDirect(8 * chunkCount), chunkCount);
  }

  private static void create(Path file, long size, String permissions) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessLiveness.currentPid());
    try {
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.allocate(1), size - 1);
      }
      try {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString(permissions));
      } catch (UnsupportedOperationException e) {
        // A file system without POSIX permissions: the pool's files have none either.
      }
      Files.createLink(file, temp);
    } catch (FileAlreadyExistsException e) {
      // Another process of the node made it first: use theirs.
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Chunk {@code chunk} was lent at {@code generation}: nothing of it is written yet. */
  void lent(int chunk, long generation) {
    words.setLong(offset(chunk), pack(generation, 0));
  }

  /**
   * Bytes of chunk {@code chunk} at {@code generation} its owner has written, or {@link #UNKNOWN}.
   */
  public int extent(int chunk, long generation) {
    long word = words.getLong(offset(chunk));
    return (int) (word >>> 32) == (int) generation ? (int) word : UNKNOWN;
  }

  /**
   * The owner of chunk {@code chunk} at {@code generation} has written every byte below {@code
   * end}; the extent never shrinks. No effect when the extent is not for that generation.
   */
  public void written(int chunk, long generation, int end) {
    int at = offset(chunk);
    while (true) {
      long word = words.getLong(at);
      if ((int) (word >>> 32) != (int) generation || (int) word >= end) {
        return;
      }
      if (words.casLong(at, word, pack(generation, end))) {
        return;
      }
    }
  }

  private int offset(int chunk) {
    if (chunk < 0 || chunk >= chunkCount) {
      throw new IndexOutOfBoundsException(
          "chunk : " + chunk + " (expected: 0 to " + (chunkCount - 1) + ")");
    }
    return 8 * chunk;
  }

  private static long pack(long generation, int extent) {
    return ((long) (int) generation << 32) | (extent & 0xFFFFFFFFL);
  }
}
