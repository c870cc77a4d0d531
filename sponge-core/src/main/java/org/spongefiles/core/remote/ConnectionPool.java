package org.spongefiles.core.remote;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.wire.ClusterSecret;

/**
 * A task's connections to sponge servers: idle ones are kept per server (up to a bound) and reused;
 * a broken one is closed instead of returned. Closing the pool closes them all.
 *
 * <p>All of a task's connections to one server share the session its first connection was issued
 * (the server binds chunks to sessions): the first connection to a server is opened alone, and
 * later ones present its ticket.
 *
 * <p>A connection idle for more than {@link #MAX_IDLE_NANOS} is closed instead of reused: servers
 * close connections idle for {@code sponge.server.idle.timeout} (at least two minutes), and a write
 * on a connection the server already closed would count that server as failed.
 */
public final class ConnectionPool implements Closeable {
  private final ClientIdentity identity;
  private final ClusterSecret secret;
  private final TlsContext tls;
  private final Duration connectTimeout;
  private final Duration ioTimeout;
  private final int maxIdlePerServer;
  static final long MAX_IDLE_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Map<ServerAddress, Deque<RemoteConnection>> idle = new HashMap<>();
  private final Map<RemoteConnection, Long> idleSince = new HashMap<>();
  private final Map<ServerAddress, byte[]> tickets = new HashMap<>();
  private final Map<ServerAddress, Object> openLocks = new HashMap<>();
  private boolean closed;

  /** Whether this pool's connections present a cluster secret. */
  public boolean hasSecret() {
    return secret != null;
  }

  /**
   * @param secret the cluster secret, or null when none is configured
   * @param tls TLS for every connection, or null for plaintext
   */
  public ConnectionPool(
      ClientIdentity identity,
      ClusterSecret secret,
      TlsContext tls,
      Duration connectTimeout,
      Duration ioTimeout,
      int maxIdlePerServer) {
    this.identity = identity;
    this.secret = secret;
    this.tls = tls;
    this.connectTimeout = connectTimeout;
    this.ioTimeout = ioTimeout;
    this.maxIdlePerServer = maxIdlePerServer;
  }

  /** An idle connection to {@code server}, or a new one. */
  public RemoteConnection borrow(ServerAddress server) throws IOException {
    byte[] ticket;
    synchronized (this) {
      if (closed) {
        throw new IOException("connections of " + identity + " are closed");
      }
      Deque<RemoteConnection> connections = idle.get(server);
      RemoteConnection connection;
      while (connections != null && (connection = connections.pollFirst()) != null) {
        long since = idleSince.remove(connection);
        if (System.nanoTime() - since <= MAX_IDLE_NANOS) {
          return connection;
        }
        connection.close();
      }
      ticket = tickets.get(server);
    }
    if (ticket != null) {
      return RemoteConnection.open(
          server, identity, secret, tls, connectTimeout, ioTimeout, ticket);
    }
    return openFirst(server);
  }

  /** Opens the connection that starts this task's session with {@code server}. */
  private RemoteConnection openFirst(ServerAddress server) throws IOException {
    Object lock;
    synchronized (this) {
      lock = openLocks.computeIfAbsent(server, s -> new Object());
    }
    synchronized (lock) {
      byte[] ticket;
      synchronized (this) {
        ticket = tickets.get(server);
      }
      RemoteConnection connection =
          RemoteConnection.open(
              server,
              identity,
              secret,
              tls,
              connectTimeout,
              ioTimeout,
              ticket == null ? new byte[0] : ticket);
      synchronized (this) {
        tickets.putIfAbsent(server, connection.ticket());
      }
      return connection;
    }
  }

  /** Returns a connection after use; broken ones and those over the bound are closed. */
  public void giveBack(RemoteConnection connection) {
    synchronized (this) {
      if (!closed && !connection.isBroken()) {
        Deque<RemoteConnection> connections =
            idle.computeIfAbsent(connection.server(), s -> new ArrayDeque<>());
        if (connections.size() < maxIdlePerServer) {
          connections.addFirst(connection);
          idleSince.put(connection, System.nanoTime());
          return;
        }
      }
    }
    connection.close();
  }

  /** Closes every idle connection to {@code server} (after it failed). */
  public void forget(ServerAddress server) {
    Deque<RemoteConnection> connections;
    synchronized (this) {
      connections = idle.remove(server);
      if (connections != null) {
        connections.forEach(idleSince::remove);
      }
    }
    if (connections != null) {
      connections.forEach(RemoteConnection::close);
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    for (Deque<RemoteConnection> connections : idle.values()) {
      connections.forEach(RemoteConnection::close);
    }
    idle.clear();
    idleSince.clear();
  }
}
