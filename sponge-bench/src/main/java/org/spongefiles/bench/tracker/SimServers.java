package org.spongefiles.bench.tracker;

import io.netty.channel.nio.NioEventLoopGroup;
import java.io.Closeable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ZooKeeperLayout;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.server.tracking.LeaderLink;
import org.spongefiles.server.tracking.LeaderWatch;
import org.spongefiles.server.tracking.LinkSettings;
import org.spongefiles.server.tracking.PoolGauge;
import org.spongefiles.server.tracking.RelayTargets;

/**
 * Simulated sponge servers, each with its own identity, rack (40 per rack) and registration in
 * ZooKeeper, and a simulated pool (a free count); what talks to the tracker is the server's own
 * {@link LeaderLink}, one per server, all on a shared event loop and one election watch. A relay
 * forwards its rack's lists to the other simulated servers of the rack in process ({@link
 * InProcessRelay}), not over their data ports, and a peer's reports to its relay the same way: a
 * socket per rack peer would put the benchmark's JVM past this machine's open-file limit
 * (RackRelayTest runs the relays' sockets both ways).
 */
final class SimServers implements Closeable {
  static final int PER_RACK = 40;
  static final int CHUNKS = 4096;
  static final int CHUNK_SIZE = 1 << 20;

  final int count;
  final String[] endpoints;
  final String[] racks;
  final AtomicInteger[] free;
  final Map<String, Integer> byEndpoint = new HashMap<>();
  private final LeaderLink[] links;
  private final NioEventLoopGroup group =
      new NioEventLoopGroup(Integer.getInteger("bench.sim.loops", 1));
  private final LeaderWatch watch;

  SimServers(CuratorFramework zookeeper, ZooKeeperLayout layout, int count) throws Exception {
    this.count = count;
    endpoints = new String[count];
    racks = new String[count];
    free = new AtomicInteger[count];
    links = new LeaderLink[count];
    CountDownLatch registered = new CountDownLatch(count);
    for (int i = 0; i < count; i++) {
      endpoints[i] = "sim-" + i + ".rack-" + (i / PER_RACK) + ":7071";
      racks[i] = "/rack-" + (i / PER_RACK);
      free[i] = new AtomicInteger(CHUNKS);
      byEndpoint.put(endpoints[i], i);
      ServerRegistration registration =
          new ServerRegistration(ServerAddress.parse(endpoints[i]), racks[i], CHUNKS, CHUNK_SIZE);
      zookeeper
          .create()
          .creatingParentsIfNeeded()
          .withMode(CreateMode.EPHEMERAL)
          .inBackground((client, event) -> registered.countDown())
          .forPath(layout.server(endpoints[i]), registration.encode());
    }
    if (!registered.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          registered.getCount() + " of " + count + " registrations unanswered after 120 s");
    }
    watch = new LeaderWatch(zookeeper, layout.leaderLatch());
    ClientIdentity identity =
        new ClientIdentity("", (int) ProcessHandle.current().pid(), 0, 1, "sponge-server@sim");
    for (int i = 0; i < count; i++) {
      AtomicInteger pool = free[i];
      links[i] =
          new LeaderLink(
              new LinkSettings(
                  endpoints[i], racks[i], identity, null, null, 400, 10_000, 0.01, 0.05, 2000),
              new PoolGauge() {
                @Override
                public int chunkSize() {
                  return CHUNK_SIZE;
                }

                @Override
                public int chunks() {
                  return CHUNKS;
                }

                @Override
                public int freeChunks() {
                  return pool.get();
                }
              },
              watch,
              group,
              (loop, lost) -> new InProcessRelay());
    }
  }

  /**
   * A relay's forwarding, straight into the rack peers' links as their data port would hand it, and
   * a peer's report straight into its relay's link.
   */
  private final class InProcessRelay implements RelayTargets {
    @Override
    public boolean report(List<String> relays, FreeReport report) {
      for (String relay : relays) {
        Integer to = byEndpoint.get(relay);
        if (to != null && !relay.equals(report.endpoint)) {
          try {
            links[to].carry(report, report.endpoint);
            return true;
          } catch (WireException notCarrying) {
            // the next relay, or the leader itself
          }
        }
      }
      return false;
    }

    @Override
    public void forward(RelayedList relayed, String self) {
      for (FreeList.Entry entry : relayed.list.servers) {
        Integer peer = byEndpoint.get(entry.endpoint);
        if (peer != null && !entry.endpoint.equals(self)) {
          links[peer].relayed(relayed);
        }
      }
    }

    @Override
    public void close() {}
  }

  LeaderLink link(int server) {
    return links[server];
  }

  int linked() {
    int linked = 0;
    for (LeaderLink link : links) {
      if (link.isLinked()) {
        linked++;
      }
    }
    return linked;
  }

  long reportsSent() {
    long sent = 0;
    for (LeaderLink link : links) {
      sent += link.reportsSent();
    }
    return sent;
  }

  @Override
  public void close() {
    for (LeaderLink link : links) {
      if (link != null) {
        link.close();
      }
    }
    watch.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
