package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.TestCertificates;
import org.spongefiles.testkit.TestDirs;

/**
 * TLS on the tracker's port and on the servers' reports to it: the free list travels encrypted, a
 * task finds TLS servers through a TLS tracker and spills to them, and a plaintext client is
 * refused.
 */
@Timeout(120)
class TrackerTlsTest {
  private TestingServer zookeeper;
  private ClusterFixture cluster;
  private Path dir;
  private TestCertificates ca;

  @BeforeEach
  void setUp() throws Exception {
    zookeeper = new TestingServer();
    cluster = new ClusterFixture(zookeeper.getConnectString());
    dir = Files.createTempDirectory("tracker-tls");
    ca = TestCertificates.authority(dir, "cluster");
  }

  @AfterEach
  void tearDown() throws Exception {
    cluster.close();
    zookeeper.close();
    TestDirs.deleteTree(dir);
  }

  private SpongeServer tlsServer(String node) throws Exception {
    return tlsServer(node, ca.keystore(node));
  }

  /**
   * A server on 127.0.0.1 with {@code keystore} (any node's: the certificate names the address).
   */
  private SpongeServer tlsServer(String node, Path keystore) throws Exception {
    Configuration conf = ca.daemon(cluster.serverConf(node, "/r1", 16), keystore);
    return cluster.add(SpongeServer.start(conf));
  }

  private FreeList freeList(MemoryTracker tracker, TlsContext tls) throws Exception {
    try (RemoteConnection connection =
        RemoteConnection.open(
            ServerAddress.parse(tracker.endpoint()),
            new ClientIdentity("", (int) ProcessHandle.current().pid(), 0, 1, "attempt_probe"),
            null,
            tls,
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            new byte[0])) {
      return connection.freeList("/r1");
    }
  }

  private static List<String> endpoints(FreeList list) {
    return list.servers.stream().map(e -> e.endpoint).sorted().collect(Collectors.toList());
  }

  @Test
  void aTaskFindsTlsServersThroughATlsTrackerAndSpillsToThem() throws Exception {
    Configuration trackerConf =
        ca.daemon(cluster.trackerConf("tracker-1", "200ms"), ca.keystore("tracker-1"));
    trackerConf.setInt("sponge.tracker.metrics.port", 0);
    trackerConf.set("sponge.tracker.handshake.timeout", "500ms");
    MemoryTracker tracker = cluster.add(MemoryTracker.start(trackerConf));
    Path storeA = ca.keystore("node-a");
    SpongeServer a = tlsServer("node-a", storeA);
    SpongeServer b = tlsServer("node-b");
    // The leader's relays forward its list to the third server, over TLS too (with node-a's
    // keystore: making another takes seconds).
    SpongeServer c = tlsServer("node-c", storeA);
    TlsContext tls =
        TlsContext.forClient(ConfigValues.reading(ca.client(new Configuration(false))));
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .ignoreExceptions()
        .until(
            () ->
                endpoints(freeList(tracker, tls))
                    .equals(
                        List.of(a.endpoint(), b.endpoint(), c.endpoint()).stream()
                            .sorted()
                            .collect(Collectors.toList())));
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              List<SpongeServer> forwarded =
                  List.of(a, b, c).stream()
                      .filter(s -> s.leaderLink().listsFromLeader() == 0)
                      .collect(Collectors.toList());
              assertThat(forwarded).as("servers that got their list from relays only").hasSize(1);
              assertThat(forwarded.get(0).leaderLink().listsFromRelays()).isPositive();
              assertThat(
                      forwarded
                          .get(0)
                          .leaderLink()
                          .answer("/r1", "test", new SplittableRandom(1))
                          .servers)
                  .hasSize(3);
            });

    Configuration taskConf = ca.client(cluster.taskConf("node-x", "/r1", tracker.endpoint()));
    long size = 12L * ClusterFixture.CHUNK + 5;
    try (SpongeTask task = SpongeTask.open(taskConf, "attempt_tracker_tls")) {
      SpongeFile file = task.create("found-through-tls");
      byte[] digest;
      try (OutputStream out = file.output()) {
        digest = RandomBytes.write(out, 5, size);
      }
      assertThat(task.stats().bytesWritten(TierKind.REMOTE)).isEqualTo(size);
      try (SpongeInputStream in = file.input()) {
        RandomBytes.Digest read = RandomBytes.read(in, 0);
        assertThat(read.bytes).isEqualTo(size);
        assertThat(read.sha256).isEqualTo(digest);
      }
      file.delete();
    }

    assertThatThrownBy(() -> freeList(tracker, null))
        .hasMessageContaining(tracker.endpoint())
        .hasMessageContaining("sponge.tls.enabled");
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                metrics(tracker.metricsPort())
                    .contains("sponge_tracker_refused_peers_total{reason=\"tls_handshake\"} 1.0"));
  }

  @Test
  void aTlsTrackerCountsAPlaintextServerDown() throws Exception {
    Configuration trackerConf =
        ca.daemon(cluster.trackerConf("tracker-1", "200ms"), ca.keystore("tracker-1"));
    MemoryTracker tracker = cluster.add(MemoryTracker.start(trackerConf));
    SpongeServer secure = tlsServer("node-a");
    cluster.server("node-b", "/r1", 16); // plaintext
    TlsContext tls =
        TlsContext.forClient(ConfigValues.reading(ca.client(new Configuration(false))));
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .ignoreExceptions()
        .until(() -> endpoints(freeList(tracker, tls)).equals(List.of(secure.endpoint())));
    Awaitility.await() // a while longer: the plaintext server's link is refused, it stays out
        .during(Duration.ofMillis(600))
        .atMost(Duration.ofSeconds(5))
        .until(() -> endpoints(freeList(tracker, tls)).equals(List.of(secure.endpoint())));
  }

  private static String metrics(int port) throws Exception {
    HttpURLConnection connection =
        (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/metrics").openConnection();
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }
}
