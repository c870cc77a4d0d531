package org.spongefiles.core.remote;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigException;

/** The {@code sponge.remote.*} settings of a task's remote tier, read and checked once. */
public final class RemoteSettings {
  final List<ServerAddress> servers;
  final Duration connectTimeout;
  final Duration ioTimeout;
  final int connectionsPerServer;
  final int allocateBatch;
  final long refusalBackoffMillis;
  final long failureBackoffMillis;
  final boolean encrypt;

  public RemoteSettings(Configuration conf) {
    this.servers = servers(conf);
    this.connectTimeout = SpongeOptions.REMOTE_CONNECT_TIMEOUT.get(conf);
    this.ioTimeout = SpongeOptions.REMOTE_IO_TIMEOUT.get(conf);
    this.connectionsPerServer = SpongeOptions.REMOTE_CONNECTIONS.get(conf);
    this.allocateBatch = SpongeOptions.REMOTE_ALLOCATE_BATCH.get(conf);
    this.refusalBackoffMillis = SpongeOptions.REMOTE_REFUSAL_BACKOFF.get(conf).toMillis();
    this.failureBackoffMillis = SpongeOptions.REMOTE_FAILURE_BACKOFF.get(conf).toMillis();
    this.encrypt = SpongeOptions.REMOTE_ENCRYPT.get(conf);
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

  private static List<ServerAddress> servers(Configuration conf) {
    List<ServerAddress> servers = new ArrayList<>();
    for (String entry : SpongeOptions.REMOTE_SERVERS.get(conf)) {
      try {
        servers.add(ServerAddress.parse(entry));
      } catch (IllegalArgumentException e) {
        throw new ConfigException(SpongeOptions.REMOTE_SERVERS.key(), entry, e.getMessage());
      }
    }
    return servers;
  }

  /**
   * This node's sponge server as remote servers should reach it to check a task's liveness: {@code
   * sponge.server.address}, else the node name and {@code sponge.server.port}.
   */
  public static String nodeServerEndpoint(Configuration conf, String nodeName) {
    String explicit = SpongeOptions.SERVER_ADDRESS.get(conf);
    if (!explicit.isEmpty()) {
      try {
        return ServerAddress.parse(explicit).toString();
      } catch (IllegalArgumentException e) {
        throw new ConfigException(SpongeOptions.SERVER_ADDRESS.key(), explicit, e.getMessage());
      }
    }
    return nodeName + ":" + SpongeOptions.SERVER_PORT.get(conf);
  }
}
