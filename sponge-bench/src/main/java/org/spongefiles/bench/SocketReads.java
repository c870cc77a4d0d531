package org.spongefiles.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** Blocking reads of the raw-socket baselines ({@code transfer} and {@code node}). */
public final class SocketReads {
  private SocketReads() {}

  /** Fills {@code buffer} from {@code channel}; false when the peer closed the stream first. */
  public static boolean readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        return false;
      }
    }
    return true;
  }
}
