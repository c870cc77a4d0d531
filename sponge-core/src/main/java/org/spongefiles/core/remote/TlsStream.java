package org.spongefiles.core.remote;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * TLS over a blocking {@link SocketChannel}, with the JDK's {@link SSLEngine}: the client side of a
 * task's (or tool's) connection when {@code sponge.tls.enabled} is true. Writes wrap as many
 * records as fit in one buffer before each system call; reads decrypt straight into the caller's
 * buffer when it has room for a whole record, else through a buffer of one record. Timeouts are
 * {@link TimedChannel}'s: its watchdog closes the socket under a blocked read or write.
 */
final class TlsStream {
  private static final ByteBuffer[] NOTHING = {ByteBuffer.allocate(0)};
  private static final int RECORDS_PER_IO = 4;

  private final SocketChannel channel;
  private final SSLEngine engine;
  private final String peer;
  private final int packetSize;
  private final int appSize;
  private final ByteBuffer netIn; // read mode: received ciphertext not yet decrypted
  private final ByteBuffer netOut; // filled by wrap, written out at once
  private final ByteBuffer appIn; // read mode: decrypted bytes the caller has not taken yet
  private boolean established;

  TlsStream(SocketChannel channel, SSLEngine engine, String peer) {
    this.channel = channel;
    this.engine = engine;
    this.peer = peer;
    this.packetSize = engine.getSession().getPacketBufferSize();
    this.appSize = engine.getSession().getApplicationBufferSize();
    this.netIn = ByteBuffer.allocateDirect(packetSize * RECORDS_PER_IO).flip();
    this.netOut = ByteBuffer.allocateDirect(packetSize * RECORDS_PER_IO);
    this.appIn = ByteBuffer.allocateDirect(appSize).flip();
  }

  /** Runs the TLS handshake; the server's certificate is checked by the engine's trust. */
  void handshake() throws IOException {
    engine.beginHandshake();
    HandshakeStatus status = engine.getHandshakeStatus();
    while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
      switch (status) {
        case NEED_WRAP:
          wrapAndSend(NOTHING);
          break;
        case NEED_TASK:
          runTasks();
          break;
        default: // NEED_UNWRAP, NEED_UNWRAP_AGAIN
          appIn.compact();
          int produced;
          try {
            produced = unwrapInto(appIn);
          } finally {
            appIn.flip();
          }
          if (produced < 0) {
            throw new EOFException("Connection to " + peer + " closed during the TLS handshake");
          }
      }
      status = engine.getHandshakeStatus();
    }
    established = true;
  }

  /** Encrypts and sends every remaining byte of {@code buffers}. */
  void write(ByteBuffer[] buffers) throws IOException {
    do {
      wrapAndSend(buffers);
    } while (hasRemaining(buffers));
  }

  /** Reads at least one byte into {@code dst}; -1 when the server closed the connection. */
  int read(ByteBuffer dst) throws IOException {
    while (true) {
      if (appIn.hasRemaining()) {
        int n = Math.min(appIn.remaining(), dst.remaining());
        ByteBuffer part = appIn.duplicate();
        part.limit(part.position() + n);
        dst.put(part);
        appIn.position(appIn.position() + n);
        return n;
      }
      int produced;
      if (dst.remaining() >= appSize) {
        produced = unwrapInto(dst);
        if (produced != 0) {
          return produced;
        }
      } else {
        appIn.clear();
        try {
          produced = unwrapInto(appIn);
        } finally {
          appIn.flip();
        }
        if (produced < 0) {
          return -1;
        }
      }
    }
  }

  /** Wraps records of {@code buffers} until the output buffer is full, then sends them. */
  private void wrapAndSend(ByteBuffer[] buffers) throws IOException {
    netOut.clear();
    do {
      SSLEngineResult result = engine.wrap(buffers, netOut);
      if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
        throw new SSLException("TLS session with " + peer + " is closed");
      }
      if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
        break; // netOut holds at least one record: send them
      }
      if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
        runTasks();
      }
    } while (netOut.remaining() >= packetSize && hasRemaining(buffers));
    netOut.flip();
    while (netOut.hasRemaining()) {
      channel.write(netOut);
    }
  }

  /**
   * Decrypts one record into {@code dst}, receiving more when a record is incomplete. Returns the
   * bytes produced (0 for a record that carries none, such as a session ticket), -1 at the end.
   */
  private int unwrapInto(ByteBuffer dst) throws IOException {
    while (true) {
      SSLEngineResult result = engine.unwrap(netIn, dst);
      switch (result.getStatus()) {
        case OK:
          if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
            runTasks();
          }
          if (established && engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
            wrapAndSend(NOTHING); // a key update, answered after the handshake
          }
          return result.bytesProduced();
        case BUFFER_UNDERFLOW:
          netIn.compact();
          int read;
          try {
            read = channel.read(netIn);
          } finally {
            netIn.flip();
          }
          if (read < 0) {
            return -1;
          }
          break;
        case BUFFER_OVERFLOW:
          throw new IllegalStateException(
              "a TLS record of "
                  + peer
                  + " does not fit "
                  + dst.remaining()
                  + " bytes (expected: "
                  + appSize
                  + ")");
        default: // CLOSED
          return -1;
      }
    }
  }

  private void runTasks() {
    Runnable task;
    while ((task = engine.getDelegatedTask()) != null) {
      task.run();
    }
  }

  private static boolean hasRemaining(ByteBuffer[] buffers) {
    for (ByteBuffer buffer : buffers) {
      if (buffer.hasRemaining()) {
        return true;
      }
    }
    return false;
  }
}
