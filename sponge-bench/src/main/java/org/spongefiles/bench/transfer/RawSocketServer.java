package org.spongefiles.bench.transfer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.spongefiles.bench.SocketReads;

/**
 * The baseline of the server benchmarks: a bare loopback socket peer. For each request, a 5-byte
 * header (op, length): {@code W} reads that many bytes and answers one byte; {@code R} answers that
 * many bytes; {@code S} gives the connection a store of that many bytes, which later writes fill
 * and reads read in turn, wrapping at its end (as a server keeps a file's bytes until they are read
 * back), where without it every request uses the same 16 MiB. No framing, checksums or pool: what
 * the network path alone costs.
 *
 * <p>Run standalone ({@code main}) it prints {@code READY <port>}.
 */
public final class RawSocketServer implements AutoCloseable {
  private final ServerSocketChannel listener;
  private final Thread acceptor;

  public RawSocketServer() throws IOException {
    listener = ServerSocketChannel.open();
    listener.bind(new InetSocketAddress("127.0.0.1", 0));
    acceptor = new Thread(this::acceptLoop, "raw-socket-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() throws IOException {
    return ((InetSocketAddress) listener.getLocalAddress()).getPort();
  }

  private void acceptLoop() {
    try {
      while (true) {
        SocketChannel channel = listener.accept();
        Thread serve = new Thread(() -> serve(channel), "raw-socket-conn");
        serve.setDaemon(true);
        serve.start();
      }
    } catch (IOException e) {
      // closed
    }
  }

  private static void serve(SocketChannel channel) {
    ByteBuffer header = ByteBuffer.allocateDirect(5);
    ByteBuffer data = ByteBuffer.allocateDirect(16 << 20);
    ByteBuffer ack = ByteBuffer.allocateDirect(1);
    boolean stored = false;
    int writeAt = 0;
    int readAt = 0;
    try (SocketChannel c = channel) {
      c.socket().setTcpNoDelay(true);
      while (true) {
        header.clear();
        if (!SocketReads.readFully(c, header)) {
          return;
        }
        byte op = header.get(0);
        int length = header.getInt(1);
        if (op == 'S') {
          data = ByteBuffer.allocateDirect(length);
          stored = true;
          continue;
        }
        int at = 0;
        if (stored) {
          if (op == 'W') {
            writeAt = writeAt + length > data.capacity() ? 0 : writeAt;
            at = writeAt;
            writeAt += length;
          } else {
            readAt = readAt + length > data.capacity() ? 0 : readAt;
            at = readAt;
            readAt += length;
          }
        }
        data.limit(at + length).position(at);
        if (op == 'W') {
          SocketReads.readFully(c, data);
          ack.clear();
          ack.put((byte) 1).flip();
          c.write(ack);
        } else {
          while (data.hasRemaining()) {
            c.write(data);
          }
        }
      }
    } catch (IOException e) {
      // client went away
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }

  public static void main(String[] args) throws Exception {
    RawSocketServer server = new RawSocketServer();
    System.out.println("READY " + server.port());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
