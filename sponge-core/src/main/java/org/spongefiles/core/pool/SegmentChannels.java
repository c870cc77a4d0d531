package org.spongefiles.core.pool;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.spongefiles.core.io.ReopeningChannel;

/**
 * Positional reads and writes of a pool's segment files, how a task moves chunk bytes: one channel
 * per segment, opened on first use and shared by the JVM's threads (an interrupted thread's copy
 * fails alone, see {@link ReopeningChannel}).
 */
final class SegmentChannels implements Closeable {
  private final ReopeningChannel[] segments;

  SegmentChannels(Path[] files) {
    segments = new ReopeningChannel[files.length];
    for (int s = 0; s < files.length; s++) {
      segments[s] = new ReopeningChannel(files[s]);
    }
  }

  /** Writes all of {@code src} (position to limit) at {@code position} of segment {@code s}. */
  void write(int s, long position, ByteBuffer src) throws IOException {
    segments[s].writeFully(position, src);
  }

  /** Fills {@code dst} (position to limit) from {@code position} of segment {@code s}. */
  void read(int s, long position, ByteBuffer dst) throws IOException {
    segments[s].readFully(position, dst);
  }

  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (ReopeningChannel segment : segments) {
      try {
        segment.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
