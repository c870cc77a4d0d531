package org.spongefiles.bench.node;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.spongefiles.bench.SocketReads;

/**
 * The raw-socket baseline of the remote-tier rows: a bare TCP peer on another emulated node. Per
 * request a 9-byte header (op, length as a long): {@code W} reads and drops that many bytes and
 * answers one byte; {@code R} sends that many bytes. One stream each way, no framing, checksums or
 * pool: what the shaped link alone delivers.
 *
 * <pre>
 * java ... LinkPeer &lt;port&gt;   (prints READY &lt;port&gt;)
 * </pre>
 */
public final class LinkPeer {
  static final int BUFFER = 1 << 20;

  private LinkPeer() {}

  public static void main(String[] args) throws IOException {
    ServerSocketChannel listener = ServerSocketChannel.open();
    listener.bind(new InetSocketAddress(Integer.parseInt(args[0])));
    System.out.println("READY " + ((InetSocketAddress) listener.getLocalAddress()).getPort());
    System.out.flush();
    while (true) {
      SocketChannel channel = listener.accept();
      Thread serve = new Thread(() -> serve(channel), "link-peer");
      serve.setDaemon(true);
      serve.start();
    }
  }

  private static void serve(SocketChannel channel) {
    ByteBuffer header = ByteBuffer.allocateDirect(9);
    ByteBuffer data = ByteBuffer.allocateDirect(BUFFER);
    try (SocketChannel c = channel) {
      while (true) {
        header.clear();
        if (!SocketReads.readFully(c, header)) {
          return;
        }
        byte op = header.get(0);
        long length = header.getLong(1);
        for (long done = 0; done < length; ) {
          data.clear().limit((int) Math.min(BUFFER, length - done));
          if (op == 'W') {
            int n = c.read(data);
            if (n < 0) {
              return;
            }
            done += n;
          } else {
            done += c.write(data);
          }
        }
        if (op == 'W') {
          c.write(ByteBuffer.wrap(new byte[] {1}));
        }
      }
    } catch (IOException e) {
      // the client went away
    }
  }
}
