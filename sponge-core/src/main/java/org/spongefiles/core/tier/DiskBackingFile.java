package org.spongefiles.core.tier;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one local file a SpongeFile's disk chunks are appended to, so a file spilled to disk is one
 * contiguous region instead of many small files.
 */
final class DiskBackingFile {
  private final Path path;
  private final Path dir;
  private FileChannel channel;
  private boolean deleted;
  private long size;
  private long allocated;

  DiskBackingFile(Path path, Path dir) throws IOException {
    this.path = path;
    this.dir = dir;
    Files.createDirectories(path.getParent());
    this.channel =
        FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /** Appends the bytes of {@code data}; returns the offset they start at. */
  long append(ByteBuffer data) throws IOException {
    long start = size;
    long position = start;
    try {
      while (data.hasRemaining()) {
        try {
          position += channel().write(data, position);
        } catch (ClosedByInterruptException e) {
          throw interrupted("writing", e);
        } catch (AsynchronousCloseException e) {
          // Another thread's interrupt closed the shared channel: write again on a new one.
        }
      }
    } finally {
      size = Math.max(size, position);
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

  /**
   * The open channel of the file. A thread interrupted in a channel operation closes the channel
   * for every user (NIO's interruptible channels), so a closed one is reopened: one thread's
   * interrupt must not make the rest of the file unreadable.
   */
  synchronized FileChannel channel() throws IOException {
    if (!channel.isOpen()) {
      if (deleted) {
        throw new ClosedChannelException();
      }
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    return channel;
  }

  /** The caller's own interrupt, which is not a disk failure. */
  InterruptedIOException interrupted(String doing, ClosedByInterruptException e) {
    InterruptedIOException interrupted =
        new InterruptedIOException("interrupted " + doing + " " + path);
    interrupted.initCause(e);
    return interrupted;
  }

  long size() {
    return size;
  }

  void delete() throws IOException {
    FileChannel last;
    synchronized (this) {
      deleted = true;
      last = channel;
    }
    try {
      last.close();
    } finally {
      Files.deleteIfExists(path);
    }
  }
}
