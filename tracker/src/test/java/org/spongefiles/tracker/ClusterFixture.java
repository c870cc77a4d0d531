package org.spongefiles.tracker;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.TestDirs;

/**
 * A small cluster on 127.0.0.1 for tracker tests: a real ZooKeeper connect string, sponge servers
 * registering in it (each with its own pool, node name and rack), trackers, and task configurations
 * pointing at the trackers.
 */
final class ClusterFixture implements AutoCloseable {
  static final int CHUNK = 64 << 10;

  private final String quorum;
  private final List<AutoCloseable> running = new ArrayList<>();
  private final List<Path> dirs = new ArrayList<>();

  ClusterFixture(String quorum) {
    this.quorum = quorum;
  }

  Configuration base() {
    Configuration conf = new Configuration(false);
    conf.set("sponge.zookeeper.quorum", quorum);
    conf.set("sponge.zookeeper.session.timeout", "2s");
    conf.set("sponge.zookeeper.connect.timeout", "2s");
    conf.set("sponge.chunk.size", Integer.toString(CHUNK));
    conf.set("sponge.checksum.block.size", "16k");
    conf.set("sponge.pool.permissions", "rw-------");
    return conf;
  }

  Configuration serverConf(String node, String rack, int chunks) {
    Configuration conf = base();
    Path pool = TestDirs.newShmDir("trk-" + node);
    dirs.add(pool);
    int port = freePort();
    conf.set("sponge.node.id", node);
    conf.set("sponge.rack", rack);
    conf.set("sponge.server.bind.host", "127.0.0.1");
    conf.setInt("sponge.server.port", port);
    conf.set("sponge.server.address", "127.0.0.1:" + port);
    conf.setInt("sponge.server.metrics.port", -1);
    conf.setBoolean("sponge.auth.none", true);
    conf.set("sponge.pool.dir", pool.toString());
    conf.set("sponge.pool.size", Long.toString((long) chunks * CHUNK));
    conf.set("sponge.server.reclaim.interval", "500ms");
    return conf;
  }

  SpongeServer server(String node, String rack, int chunks) throws IOException {
    SpongeServer server = SpongeServer.start(serverConf(node, rack, chunks));
    running.add(server);
    return server;
  }

  Configuration trackerConf(String name, String pollInterval) {
    Configuration conf = base();
    int port = freePort();
    conf.set("sponge.node.id", name);
    conf.set("sponge.tracker.bind.host", "127.0.0.1");
    conf.setInt("sponge.tracker.port", port);
    conf.set("sponge.tracker.address", "127.0.0.1:" + port);
    conf.setInt("sponge.tracker.metrics.port", -1);
    conf.setBoolean("sponge.auth.none", true);
    conf.set("sponge.tracker.poll.interval", pollInterval);
    return conf;
  }

  MemoryTracker tracker(String name, String pollInterval) throws IOException {
    MemoryTracker tracker = MemoryTracker.start(trackerConf(name, pollInterval));
    running.add(tracker);
    return tracker;
  }

  /** A task on {@code node} in {@code rack}: its own small pool off, the trackers, then disk. */
  Configuration taskConf(String node, String rack, String... trackers) {
    Configuration conf = base();
    Path disk = TestDirs.newShmDir("trk-disk-" + node);
    dirs.add(disk);
    conf.set("sponge.node.id", node);
    conf.set("sponge.rack", rack);
    conf.set("sponge.server.address", "");
    conf.set("sponge.tiers", "remote,disk");
    // Placement is asserted below; overflow would send chunks to disk when the servers lag.
    conf.setBoolean("sponge.write.overflow", false);
    conf.set("sponge.disk.dirs", disk.toString());
    conf.set("sponge.disk.reserve", "0");
    conf.set("sponge.tracker.addresses", String.join(",", trackers));
    conf.set("sponge.tracker.timeout", "300ms");
    conf.set("sponge.tracker.refresh", "100ms");
    conf.set("sponge.remote.connect.timeout", "1s");
    conf.set("sponge.remote.io.timeout", "5s");
    conf.set("sponge.remote.allocate.batch", "1");
    conf.set("sponge.remote.refusal.backoff", "0ms");
    return conf;
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws Exception {
    for (int i = running.size() - 1; i >= 0; i--) {
      running.get(i).close();
    }
    for (Path dir : dirs) {
      TestDirs.deleteTree(dir);
    }
  }
}
