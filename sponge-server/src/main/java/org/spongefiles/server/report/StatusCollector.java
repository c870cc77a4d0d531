package org.spongefiles.server.report;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.spongefiles.core.cluster.LatchParticipants;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ServerRegistry;
import org.spongefiles.core.cluster.ZooKeeperLayout;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.ServerStats;

/**
 * Reads the rack's state from what is already there: the trackers' leader latch and the servers'
 * registrations in ZooKeeper, each server's STATS over the wire protocol and its Prometheus
 * endpoint (connections, holdings by task).
 */
public final class StatusCollector {
  private final CuratorFramework zookeeper;
  private final ZooKeeperLayout layout;
  private final ClusterSecret secret;
  private final TlsContext tls;
  private final Duration timeout;

  /**
   * @param secret the cluster secret, or null
   * @param tls TLS to the servers' wire ports, or null for plaintext
   */
  public StatusCollector(
      CuratorFramework zookeeper,
      ZooKeeperLayout layout,
      ClusterSecret secret,
      TlsContext tls,
      Duration timeout) {
    this.zookeeper = zookeeper;
    this.layout = layout;
    this.secret = secret;
    this.tls = tls;
    this.timeout = timeout;
  }

  /**
   * The rack report.
   *
   * @throws IOException when ZooKeeper cannot be read
   */
  public RackStatus collect() throws IOException {
    String leader = leader();
    String silentLeader = leader == null ? null : silence(leader);
    List<ServerStatus> servers = new ArrayList<>();
    for (ServerRegistration registration : ServerRegistry.list(zookeeper, layout, null)) {
      servers.add(server(registration));
    }
    if (silentLeader != null) {
      return new RackStatus(null, silentLeader, servers);
    }
    return new RackStatus(leader, null, servers);
  }

  /**
   * Null when the leader's port accepts a connection within the timeout, else why not: a killed
   * leader holds the election until its ZooKeeper session expires, and no task gets an answer.
   */
  private String silence(String leader) {
    ServerAddress address;
    try {
      address = ServerAddress.parse(leader);
    } catch (IllegalArgumentException e) {
      return leader + " leads but its endpoint is not host:port";
    }
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(address.host(), address.port()), (int) timeout.toMillis());
      return null;
    } catch (IOException e) {
      return leader
          + " holds the election but does not answer ("
          + e.getMessage()
          + "); a follower takes over once it is removed";
    }
  }

  /**
   * The leading tracker: the participant of the leader latch with the lowest sequence number, as
   * Curator's LeaderLatch decides.
   */
  String leader() throws IOException {
    String path = layout.leaderLatch();
    try {
      return LatchParticipants.leader(zookeeper, path);
    } catch (Exception e) {
      throw new IOException(
          "Cannot read the trackers' leader latch " + path + " in ZooKeeper: " + e.getMessage(), e);
    }
  }

  private ServerStatus server(ServerRegistration registration) {
    String address = registration.address().toString();
    // Scraped before this report's own connection opens, so that it does not count itself.
    MetricsScrape scrape = null;
    if (registration.metricsPort() >= 0) {
      try {
        scrape =
            MetricsScrape.fetch(registration.address().host(), registration.metricsPort(), timeout);
      } catch (IOException e) {
        return ServerStatus.unreachable(address, registration.rack(), e.getMessage());
      }
    }
    ClientIdentity admin =
        new ClientIdentity(
            "",
            ProcessLiveness.currentPid(),
            ProcessLiveness.currentStartMillis(),
            ChunkOwner.taskHash("sponge-status"),
            "sponge-status");
    ServerStats stats;
    try (RemoteConnection connection =
        RemoteConnection.open(
            registration.address(), admin, secret, tls, timeout, timeout, new byte[0])) {
      stats = connection.stats();
    } catch (IOException e) {
      return ServerStatus.unreachable(address, registration.rack(), e.getMessage());
    }
    long chunkSize = stats.chunkSize;
    if (scrape == null) {
      return ServerStatus.withoutMetrics(
          address,
          stats.rack,
          (long) stats.chunks * chunkSize,
          (long) (stats.chunks - stats.freeChunks) * chunkSize,
          stats.freeBytes());
    }
    List<ServerStatus.TaskHolding> tasks = new ArrayList<>();
    for (MetricsScrape.Sample sample : scrape.samples("sponge_server_task_chunks")) {
      tasks.add(
          new ServerStatus.TaskHolding(
              sample.labels.get("task"), address, (long) sample.value * chunkSize));
    }
    try {
      return new ServerStatus(
          address,
          stats.rack,
          (long) stats.chunks * chunkSize,
          (long) (stats.chunks - stats.freeChunks) * chunkSize,
          stats.freeBytes(),
          (long) scrape.value("sponge_server_owned_chunks", "owner", "local") * chunkSize,
          (long) scrape.value("sponge_server_owned_chunks", "owner", "remote") * chunkSize,
          (long) scrape.value("sponge_server_connections"),
          tasks);
    } catch (IOException e) {
      return ServerStatus.unreachable(address, stats.rack, e.getMessage());
    }
  }
}
