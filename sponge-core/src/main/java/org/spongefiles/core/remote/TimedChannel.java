package org.spongefiles.core.remote;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.tls.TlsOptions;

/**
 * A blocking socket channel with real timeouts. A blocking {@link SocketChannel} ignores
 * SO_TIMEOUT, and waiting through a selector costs an extra system call per wait; instead each
 * request runs in blocking mode, so the kernel moves whole buffers, under a watchdog that closes
 * the channel if the request takes longer than the timeout ({@link ChannelWatchdog}, which checks
 * every {@link ChannelWatchdog#SWEEP_MILLIS}). Data moves straight between the socket and the
 * caller's buffers, so reading into a direct buffer costs no extra copy.
 *
 * <p>With TLS ({@link TlsStream}) the same requests run over an {@code SSLEngine}; the handshake is
 * the first request, under the connect timeout.
 */
final class TimedChannel implements Closeable {
  private final SocketChannel channel;
  private final long timeoutMillis;
  private final String peer;
  private TlsStream tls; // null: plaintext
  private volatile long deadline; // System.nanoTime() by which the request must end; 0: none
  private volatile boolean timedOut;

  private TimedChannel(SocketChannel channel, long timeoutMillis, String peer) {
    this.channel = channel;
    this.timeoutMillis = timeoutMillis;
    this.peer = peer;
    ChannelWatchdog.watch(this);
  }

  /** Whether a request is running past its deadline at {@code now} ({@link System#nanoTime}). */
  boolean pastDeadline(long now) {
    long due = deadline;
    return due != 0 && now - due > 0 && deadline == due;
  }

  /**
   * Connects, then runs the TLS handshake (under the connect timeout) when {@code tls} is not null.
   */
  static TimedChannel connect(
      ServerAddress address, Duration connectTimeout, Duration ioTimeout, TlsContext tls)
      throws IOException {
    SocketChannel channel = SocketChannel.open();
    TimedChannel timed;
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel
          .socket()
          .connect(address.socketAddress(), (int) Math.max(1, connectTimeout.toMillis()));
      timed = new TimedChannel(channel, ioTimeout.toMillis(), address.toString());
    } catch (SocketTimeoutException e) {
      channel.close();
      throw new SocketTimeoutException(
          "Cannot connect to " + address + " within " + connectTimeout.toMillis() + " ms");
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (tls != null) {
      try {
        timed.startTls(
            tls.clientEngine(address.host(), address.port()), address.host(), connectTimeout);
      } catch (IOException | RuntimeException e) {
        timed.close();
        throw e;
      }
    }
    return timed;
  }

  private void startTls(SSLEngine engine, String host, Duration timeout) throws IOException {
    TlsStream stream = new TlsStream(channel, engine, peer);
    try {
      run(
          () -> {
            stream.handshake();
            return null;
          },
          timeout.toMillis(),
          "sponge.remote.connect.timeout");
    } catch (SSLException e) {
      throw new SSLException(
          "TLS handshake with "
              + peer
              + " failed ("
              + TlsOptions.ENABLED.key()
              + "=true here: does that server have TLS on, a certificate signed by a CA of "
              + TlsOptions.TRUSTSTORE_FILE.key()
              + ", naming "
              + host
              + "?): "
              + e.getMessage(),
          e);
    }
    tls = stream;
  }

  /** Runs one request (its writes and reads) under the watchdog. */
  <T> T request(Request<T> body) throws IOException {
    return run(body, timeoutMillis, "sponge.remote.io.timeout");
  }

  private <T> T run(Request<T> body, long millis, String key) throws IOException {
    deadline = (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis)) | 1;
    try {
      return body.run();
    } catch (ClosedChannelException e) {
      if (timedOut) {
        throw new SocketTimeoutException(
            "No answer from " + peer + " within " + millis + " ms (" + key + ")");
      }
      throw e;
    } finally {
      deadline = 0;
    }
  }

  /** A request's I/O. */
  interface Request<T> {
    T run() throws IOException;
  }

  /** Closes the channel under a request past its deadline; the request then fails naming it. */
  void expire() {
    timedOut = true;
    try {
      channel.close();
    } catch (IOException e) {
      // The request sees the closed channel either way.
    }
  }

  /** Writes every remaining byte of {@code buffers}. */
  void writeFully(ByteBuffer... buffers) throws IOException {
    if (tls != null) {
      tls.write(buffers);
      return;
    }
    long left = 0;
    for (ByteBuffer buffer : buffers) {
      left += buffer.remaining();
    }
    while (left > 0) {
      left -= channel.write(buffers);
    }
  }

  /** Fills {@code buffer} to its limit. */
  void readFully(ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      if ((tls == null ? channel.read(buffer) : tls.read(buffer)) < 0) {
        throw new EOFException("Connection to " + peer + " closed by the server");
      }
    }
  }

  @Override
  public void close() throws IOException {
    ChannelWatchdog.forget(this);
    channel.close();
  }
}
