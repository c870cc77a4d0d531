package org.spongefiles.bench.transfer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Deque;
import org.spongefiles.bench.SocketReads;

/**
 * The baseline of the server benchmarks: a bare loopback socket peer. For each request, a 5-byte
 * header (op, length): {@code W} reads that many bytes and answers one byte; {@code R} answers that
 * many bytes; {@code S} gives the connection a store of that many bytes, which later writes fill
 * and reads read in turn, wrapping at its end (as a server keeps a file's bytes until they are read
 * back), where without it every request uses the same 16 MiB. A store outlives its connection and
 * is given to a later one that asks for the same size, as a server's pool pages are reused by the
 * next task: neither side's timed run pays for touching fresh memory. No framing, checksums or
 * pool: what the network path alone costs.
 *
 * <p>Run standalone ({@code main}) it prints {@code READY <port>}.
 */
public final class RawSocketServer implements AutoCloseable {
  private final ServerSocketChannel listener;
  private final Thread acceptor;
  private final Deque<ByteBuffer> spareStores = new ArrayDeque<>();

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

  private void serve(SocketChannel channel) {
    Connection connection = new Connection();
    try (SocketChannel c = channel) {
      try {
        connection.serve(c);
      } finally {
        // Back before the socket closes: a client's close waits for that (RawSocketClient#close),
        // so the client's next connection finds it.
        if (connection.stored) {
          synchronized (spareStores) {
            spareStores.push(connection.data);
          }
        }
      }
    } catch (IOException e) {
      // client went away
    }
  }

  /** One connection's buffers and where in its store the next write and read go. */
  private final class Connection {
    private final ByteBuffer header = ByteBuffer.allocateDirect(5);
    private final ByteBuffer ack = ByteBuffer.allocateDirect(1);
    private ByteBuffer data; // a store, or 16 MiB every request reuses, made at the first
    private boolean stored;
    private int writeAt;
    private int readAt;

    void serve(SocketChannel c) throws IOException {
      c.socket().setTcpNoDelay(true);
      while (true) {
        header.clear();
        if (!SocketReads.readFully(c, header)) {
          return;
        }
        byte op = header.get(0);
        int length = header.getInt(1);
        if (op == 'S') {
          data = store(length);
          stored = true;
          continue;
        }
        if (data == null) {
          data = ByteBuffer.allocateDirect(16 << 20);
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
    }
  }

  /** A store of {@code bytes}: one a closed connection left, else a new one. */
  private ByteBuffer store(int bytes) {
    synchronized (spareStores) {
      for (ByteBuffer spare : spareStores) {
        if (spare.capacity() == bytes) {
          spareStores.remove(spare);
          return spare.clear();
        }
      }
    }
    return ByteBuffer.allocateDirect(bytes);
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
