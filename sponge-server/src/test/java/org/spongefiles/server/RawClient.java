package org.spongefiles.server;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.HelloOk;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;

/** A plain socket speaking (or mangling) the wire protocol, for protocol tests. */
final class RawClient implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  RawClient(InetSocketAddress server) throws IOException {
    this(server, null);
  }

  /** A client whose socket is bound to {@code source} (any local address when null). */
  RawClient(InetSocketAddress server, java.net.InetAddress source) throws IOException {
    socket = new Socket();
    if (source != null) {
      socket.bind(new InetSocketAddress(source, 0));
    }
    socket.connect(server, 2000);
    socket.setSoTimeout(5000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** A received frame: opcode byte, request id and payload. */
  static final class Received {
    final Opcode opcode;
    final long requestId;
    final ByteBuffer payload;

    Received(Opcode opcode, long requestId, ByteBuffer payload) {
      this.opcode = opcode;
      this.requestId = requestId;
      this.payload = payload;
    }

    WireException error() {
      return ErrorBody.decode(payload.duplicate(), "server");
    }
  }

  Received receive() throws IOException {
    byte[] header = new byte[Frame.HEADER_SIZE];
    in.readFully(header);
    ByteBuffer h = ByteBuffer.wrap(header);
    int length = h.getInt(16);
    byte[] payload = new byte[length];
    in.readFully(payload);
    return new Received(Opcode.fromCode(h.get(5)), h.getLong(8), ByteBuffer.wrap(payload));
  }

  void send(Opcode opcode, int flags, long requestId, byte[] payload) throws IOException {
    ByteBuffer frame = ByteBuffer.allocate(Frame.HEADER_SIZE + payload.length);
    Frame.putHeader(frame, opcode, flags, requestId, payload.length);
    frame.put(payload);
    out.write(frame.array());
    out.flush();
  }

  /**
   * Reads the challenge, sends {@code hello} (for a server without a cluster secret) and returns
   * the session ticket of the HELLO_OK.
   */
  byte[] hello(Hello hello) throws IOException {
    if (receive().opcode != Opcode.CHALLENGE) {
      throw new IOException("expected a CHALLENGE");
    }
    ByteBuffer body = hello.encode();
    byte[] bytes = new byte[body.remaining()];
    body.get(bytes);
    send(Opcode.HELLO, 0, 1, bytes);
    Received ok = receive();
    if (ok.opcode != Opcode.HELLO_OK) {
      throw new IOException("HELLO answered with " + ok.opcode);
    }
    return HelloOk.decode(ok.payload, "server").ticket;
  }

  void sendRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** True when the server closed the connection (EOF) within the socket timeout. */
  boolean closedByServer() throws IOException {
    try {
      while (true) {
        if (in.read() < 0) {
          return true;
        }
      }
    } catch (EOFException | java.net.SocketException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  int localPort() {
    return socket.getLocalPort();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
