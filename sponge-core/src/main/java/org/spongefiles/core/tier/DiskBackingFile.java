package org.spongefiles.core.tier;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.spongefiles.core.io.ReopeningChannel;

/**
 * The one local file a SpongeFile's disk chunks are appended to, so a file spilled to disk is one
 * contiguous region instead of many small files.
 */
final class DiskBackingFile {
  private final Path path;
  private final Path dir;
  private final ReopeningChannel channel;
  private long size;
  private long allocated;

  DiskBackingFile(Path path, Path dir) throws IOException {
    this.path = path;
    this.dir = dir;
    Files.createDirectories(path.getParent());
    this.channel =
        new ReopeningChannel(
            path,
            FileChannel.open(
                path,
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE));
  }

  /** Appends the bytes of {@code data}; returns the offset they start at. */
  long append(ByteBuffer data) throws IOException {
    long start = size;
    int from = data.position();
    try {
      channel.writeFully(start, data);
    } finally {
      size = Math.max(size, start + data.position() - from);
      allocated = Math.max(allocated, size);
    }
    return start;
  }

  /** Starts over at offset 0, keeping the blocks already allocated (for recycling). */
  void reset() {
    size = 0;
  }

  /** Bytes the file occupies on disk (the most it ever held). */
  long allocated() {
    return allocated;
  }

  Path path() {
    return path;
  }

  /** The local directory (one of sponge.disk.dirs) holding this file. */
  Path dir() {
    return dir;
  }

  /** Fills {@code dst} from byte {@code position} of the file. */
  void read(long position, ByteBuffer dst) throws IOException {
    channel.readFully(position, dst);
  }

  long size() {
    return size;
  }

  void delete() throws IOException {
    try {
      channel.close();
    } finally {
      Files.deleteIfExists(path);
    }
  }
}
