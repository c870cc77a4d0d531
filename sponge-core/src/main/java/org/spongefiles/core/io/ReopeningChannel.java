package org.spongefiles.core.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Positional reads and writes of one file, through a {@link FileChannel} that an interrupt does not
 * break for others. A thread interrupted in a channel operation closes the channel for every thread
 * (Java's interruptible channels do): the interrupted caller gets an {@link InterruptedIOException}
 * (its interrupt is not a failure of the file), a thread whose call the close cut short tries again
 * on a new channel, and later calls open one. Hadoop interrupts the fetchers and reducers it stops,
 * and the rest of the task must still read its files.
 */
public final class ReopeningChannel implements Closeable {
  private final Path path;
  private FileChannel channel;
  private boolean closed;

  /** Opens {@code path} for reading and writing on first use. */
  public ReopeningChannel(Path path) {
    this(path, null);
  }

  /** Uses {@code open}, a channel on {@code path} the caller opened (and created) itself. */
  public ReopeningChannel(Path path, FileChannel open) {
    this.path = path;
    this.channel = open;
  }

  public Path path() {
    return path;
  }

  /** Writes all of {@code src} (position to limit) from byte {@code position} of the file. */
  public void writeFully(long position, ByteBuffer src) throws IOException {
    int start = src.position();
    while (src.hasRemaining()) {
      FileChannel current = channel();
      try {
        current.write(src, position + src.position() - start);
      } catch (ClosedByInterruptException e) {
        throw interrupted("writing", e);
      } catch (ClosedChannelException e) {
        checkOpen(); // another thread's interrupt closed it: go on with a new one
      }
    }
  }

  /**
   * Fills {@code dst} (position to limit) from byte {@code position} of the file.
   *
   * @throws EOFException when the file ends first
   */
  public void readFully(long position, ByteBuffer dst) throws IOException {
    int start = dst.position();
    while (dst.hasRemaining()) {
      FileChannel current = channel();
      long at = position + dst.position() - start;
      try {
        if (current.read(dst, at) < 0) {
          throw new EOFException(path + " ends at byte " + at + ", before byte " + (at + 1));
        }
      } catch (ClosedByInterruptException e) {
        throw interrupted("reading", e);
      } catch (ClosedChannelException e) {
        checkOpen();
      }
    }
  }

  private synchronized FileChannel channel() throws IOException {
    checkOpen();
    if (channel == null || !channel.isOpen()) {
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    return channel;
  }

  private synchronized void checkOpen() throws ClosedChannelException {
    if (closed) {
      throw new ClosedChannelException();
    }
  }

  private InterruptedIOException interrupted(String doing, ClosedByInterruptException e) {
    InterruptedIOException interrupted =
        new InterruptedIOException("interrupted " + doing + " " + path);
    interrupted.initCause(e);
    return interrupted;
  }

  /** Closes the channel; every later read or write throws {@link ClosedChannelException}. */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    if (channel != null) {
      channel.close();
      channel = null;
    }
  }
}
