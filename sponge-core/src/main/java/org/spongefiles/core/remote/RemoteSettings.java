package org.spongefiles.core.remote;

import java.time.Duration;
import java.util.List;

/** The {@code sponge.remote.*} settings of a task's remote tier, parsed once at the edge. */
public final class RemoteSettings {
  final List<ServerAddress> servers;
  final Duration connectTimeout;
  final Duration ioTimeout;
  final int connectionsPerServer;
  final int allocateBatch;
  final long refusalBackoffMillis;
  final long failureBackoffMillis;
  final boolean encrypt;

  public RemoteSettings(
      List<ServerAddress> servers,
      Duration connectTimeout,
      Duration ioTimeout,
      int connectionsPerServer,
      int allocateBatch,
      Duration refusalBackoff,
      Duration failureBackoff,
      boolean encrypt) {
    this.servers = List.copyOf(servers);
    this.connectTimeout = connectTimeout;
    this.ioTimeout = ioTimeout;
    this.connectionsPerServer = connectionsPerServer;
    this.allocateBatch = allocateBatch;
    this.refusalBackoffMillis = refusalBackoff.toMillis();
    this.failureBackoffMillis = failureBackoff.toMillis();
    this.encrypt = encrypt;
  }

  /** The static servers of {@code sponge.remote.servers}. */
  public List<ServerAddress> servers() {
    return servers;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration ioTimeout() {
    return ioTimeout;
  }

  public int connectionsPerServer() {
    return connectionsPerServer;
  }
}
