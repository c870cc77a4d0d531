package org.spongefiles.tracker;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
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
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, quorum);
    ClusterOptions.ZOOKEEPER_SESSION_TIMEOUT.set(conf, Duration.ofSeconds(2));
    ClusterOptions.ZOOKEEPER_CONNECT_TIMEOUT.set(conf, Duration.ofSeconds(2));
    // Servers report and the leader pushes within about 100 ms: these tests' tasks fill a server
    // in a fraction of a second.
    ClusterOptions.REPORT_INTERVAL.set(conf, Duration.ofMillis(40));
    SpongeOptions.CHUNK_SIZE.set(conf, (long) CHUNK);
    SpongeOptions.CHECKSUM_BLOCK_SIZE.set(conf, 16L << 10);
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    return conf;
  }

  Configuration serverConf(String node, String rack, int chunks) {
    Configuration conf =
        SpongeTestConf.loopbackServer(
            base(), node, resources.shmDir("trk-" + node), (long) chunks * CHUNK);
    ClusterOptions.RACK.set(conf, rack);
    return conf;
  }

  SpongeServer server(String node, String rack, int chunks) throws IOException {
    return resources.add(SpongeServer.start(serverConf(node, rack, chunks)));
  }

  Configuration trackerConf(String name, String pollInterval) {
    return SpongeTestConf.loopbackTracker(base(), name, pollInterval);
  }

  MemoryTracker tracker(String name, String pollInterval) throws IOException {
    return resources.add(MemoryTracker.start(trackerConf(name, pollInterval)));
  }

  /** A task on {@code node} in {@code rack}: its own small pool off, the trackers, then disk. */
  Configuration taskConf(String node, String rack, String... trackers) {
    Configuration conf = base();
    Path disk = resources.shmDir("trk-disk-" + node);
    // The task's lease file goes beside its pool directory; not the machine's /dev/shm.
    SpongeOptions.POOL_DIR.set(conf, resources.shmDir("trk-lease-" + node).toString());
    SpongeOptions.NODE_ID.set(conf, node);
    ClusterOptions.RACK.set(conf, rack);
    SpongeOptions.SERVER_ADDRESS.set(conf, "");
    SpongeOptions.TIERS.set(conf, List.of("remote", "disk"));
    // Placement is asserted below; overflow would send chunks to disk when the servers lag.
    SpongeOptions.WRITE_OVERFLOW.set(conf, false);
    SpongeOptions.DISK_DIRS.set(conf, List.of(disk.toString()));
    SpongeOptions.DISK_RESERVE.set(conf, 0L);
    ClusterOptions.TRACKER_ADDRESSES.set(conf, List.of(trackers));
    ClusterOptions.TRACKER_TIMEOUT.set(conf, Duration.ofMillis(300));
    ClusterOptions.TRACKER_REFRESH.set(conf, Duration.ofMillis(100));
    SpongeOptions.REMOTE_CONNECT_TIMEOUT.set(conf, Duration.ofSeconds(1));
    SpongeOptions.REMOTE_IO_TIMEOUT.set(conf, Duration.ofSeconds(5));
    SpongeOptions.REMOTE_ALLOCATE_BATCH.set(conf, 1);
    SpongeOptions.REMOTE_REFUSAL_BACKOFF.set(conf, Duration.ZERO);
    return conf;
  }

  /** Closes {@code resource} with the fixture, before what was added earlier. */
  <T extends AutoCloseable> T add(T resource) {
    return resources.add(resource);
  }

  /** The tracker's count of free lists it answered {@code answer}, from its metrics port. */
  static double freeListRequests(MemoryTracker tracker, String answer) throws Exception {
    return metric(
        tracker.metricsPort(),
        "sponge_tracker_free_list_requests_total{answer=\"" + answer + "\"}");
  }

  /**
   * The value of the sample {@code sample} (a metric's name with its labels, as exposed) on the
   * metrics port {@code port}; 0 when it is not exposed.
   */
  static double metric(int port, String sample) throws Exception {
    String body =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(sample) + " ([0-9.eE+]+)").matcher(body);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  /** Stops the trackers and servers, last started first, and removes their files. */
  @Override
  public void close() {
    resources.close();
  }
}
