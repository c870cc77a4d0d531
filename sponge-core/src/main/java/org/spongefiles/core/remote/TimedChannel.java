package org.spongefiles.core.remote;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * A socket channel with blocking semantics and real timeouts (a blocking {@link SocketChannel}
 * ignores SO_TIMEOUT): every wait goes through a private selector. Data moves straight between the
 * socket and the caller's buffers, so reading into a direct buffer costs no extra copy.
 */
final class TimedChannel implements Closeable {
  private final SocketChannel channel;
  private final Selector selector;
  private final SelectionKey key;
  private final long timeoutMillis;
  private final String peer;

  private TimedChannel(SocketChannel channel, Selector selector, long timeoutMillis, String peer)
      throws IOException {
    this.channel = channel;
    this.selector = selector;
    this.key = channel.register(selector, 0);
    this.timeoutMillis = timeoutMillis;
    this.peer = peer;
  }

  static TimedChannel connect(ServerAddress address, Duration connectTimeout, Duration ioTimeout)
      throws IOException {
    SocketChannel channel = SocketChannel.open();
    Selector selector = null;
    try {
      channel.configureBlocking(false);
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      selector = Selector.open();
      TimedChannel timed =
          new TimedChannel(channel, selector, ioTimeout.toMillis(), address.toString());
      if (!channel.connect(address.socketAddress())) {
        timed.await(SelectionKey.OP_CONNECT, connectTimeout.toMillis(), "connecting");
        channel.finishConnect();
      }
      return timed;
    } catch (IOException | RuntimeException e) {
      channel.close();
      if (selector != null) {
        selector.close();
      }
      throw e;
    }
  }

  /** Writes every remaining byte of {@code buffers}. */
  void writeFully(ByteBuffer... buffers) throws IOException {
    long left = 0;
    for (ByteBuffer buffer : buffers) {
      left += buffer.remaining();
    }
    while (left > 0) {
      long n = channel.write(buffers);
      if (n == 0) {
        await(SelectionKey.OP_WRITE, timeoutMillis, "writing");
      }
      left -= n;
    }
  }

  /** Fills {@code buffer} to its limit. */
  void readFully(ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer);
      if (n < 0) {
        throw new EOFException("Connection to " + peer + " closed by the server");
      }
      if (n == 0) {
        await(SelectionKey.OP_READ, timeoutMillis, "reading");
      }
    }
  }

  private void await(int op, long millis, String what) throws IOException {
    key.interestOps(op);
    try {
      if (selector.select(millis) == 0) {
        throw new SocketTimeoutException(
            "No progress " + what + " " + peer + " for " + millis + " ms");
      }
      selector.selectedKeys().clear();
    } finally {
      if (key.isValid()) {
        key.interestOps(0);
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      channel.close();
    } finally {
      selector.close();
    }
  }
}
