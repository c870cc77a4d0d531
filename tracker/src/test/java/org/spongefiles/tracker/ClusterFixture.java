package org.spongefiles.tracker;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestResources;

/**
 * A small cluster on 127.0.0.1 for tracker tests: a real ZooKeeper connect string, sponge servers
 * registering in it (each with its own pool, node name and rack), trackers, and task configurations
 * pointing at the trackers.
 */
final class ClusterFixture implements AutoCloseable {
  static final int CHUNK = 64 << 10;

  private final String quorum;
  private final TestResources resources = new TestResources();

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
    Configuration conf =
        SpongeTestConf.loopbackServer(
            base(), node, resources.shmDir("trk-" + node), (long) chunks * CHUNK);
    conf.set("sponge.rack", rack);
    return conf;
  }

  SpongeServer server(String node, String rack, int chunks) throws IOException {
    return resources.add(SpongeServer.start(serverConf(node, rack, chunks)));
  }

  Configuration trackerConf(String name, String pollInterval) {
    Configuration conf = base();
    int port = SpongeTestConf.freePort();
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
    return resources.add(MemoryTracker.start(trackerConf(name, pollInterval)));
  }

  /** A task on {@code node} in {@code rack}: its own small pool off, the trackers, then disk. */
  Configuration taskConf(String node, String rack, String... trackers) {
    Configuration conf = base();
    Path disk = resources.shmDir("trk-disk-" + node);
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

  /** Closes {@code resource} with the fixture, before what was added earlier. */
  <T extends AutoCloseable> T add(T resource) {
    return resources.add(resource);
  }

  /** Stops the trackers and servers, last started first, and removes their files. */
  @Override
  public void close() {
    resources.close();
  }
}
