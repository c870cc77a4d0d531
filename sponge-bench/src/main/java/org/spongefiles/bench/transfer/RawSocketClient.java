package org.spongefiles.bench.transfer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.spongefiles.bench.SocketReads;

/** The client side of {@link RawSocketServer}: one blocking channel, direct buffers. */
final class RawSocketClient implements AutoCloseable {
  private final SocketChannel channel;
  private final ByteBuffer header = ByteBuffer.allocateDirect(5);
  private final ByteBuffer ack = ByteBuffer.allocateDirect(1);

  RawSocketClient(int port) throws IOException {
    channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
    channel.socket().setTcpNoDelay(true);
  }

  /**
   * Gives this connection a store of {@code bytes} on the server: later writes fill it in turn and
   * reads read it back in the same order.
   */
  void store(int bytes) throws IOException {
    header.clear();
    header.put((byte) 'S').putInt(bytes).flip();
    while (header.hasRemaining()) {
      channel.write(header);
    }
  }

  /** Sends {@code data} (position to limit) and waits for the one-byte answer. */
  void write(ByteBuffer data) throws IOException {
    header.clear();
    header.put((byte) 'W').putInt(data.remaining()).flip();
    channel.write(new ByteBuffer[] {header, data});
    while (header.hasRemaining() || data.hasRemaining()) {
      channel.write(new ByteBuffer[] {header, data});
    }
    ack.clear();
    SocketReads.readFully(channel, ack);
  }

  /** Asks for {@code dst.remaining()} bytes and reads them into {@code dst}. */
  void read(ByteBuffer dst) throws IOException {
    header.clear();
    header.put((byte) 'R').putInt(dst.remaining()).flip();
    while (header.hasRemaining()) {
      channel.write(header);
    }
    SocketReads.readFully(channel, dst);
  }

  /** Closes after the peer has closed its end: by then it has put this connection's store back. */
  @Override
  public void close() throws IOException {
    try {
      channel.shutdownOutput();
      ByteBuffer rest = ByteBuffer.allocate(64);
      while (channel.read(rest.clear()) >= 0) {
        // nothing is owed after the last answer; wait for the peer's end of stream
      }
    } finally {
      channel.close();
    }
  }
}
