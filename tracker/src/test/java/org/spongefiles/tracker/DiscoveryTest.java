package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.server.ServerMain;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.ChildJvm;

/**
 * Servers appear in and vanish from the leader's lists within moments of registering or leaving.
 */
@Timeout(120)
class DiscoveryTest {
  private static final Duration TWO_POLLS = Duration.ofMillis(2 * 250 + 300);
  private TestingServer zookeeper;
  private ClusterFixture cluster;
  private Path stderr;

  @BeforeEach
  void setUp() throws Exception {
    zookeeper = new TestingServer();
    cluster = new ClusterFixture(zookeeper.getConnectString());
    stderr = Files.createTempFile("discovery", ".err");
  }

  @AfterEach
  void tearDown() throws Exception {
    cluster.close();
    zookeeper.close();
    Files.deleteIfExists(stderr);
  }

  private static List<String> endpoints(String tracker, String rack) throws Exception {
    return TrackerClient.freeList(tracker, rack).servers.stream()
        .map(e -> e.endpoint)
        .sorted()
        .collect(Collectors.toList());
  }

  @Test
  void serversAppearAndDisappearWithinTwoPollPeriods() throws Exception {
    MemoryTracker tracker = cluster.tracker("tracker-1", "250ms");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(tracker::isLeader);
    SpongeServer a = cluster.server("node-a", "/r1", 16);
    Awaitility.await()
        .atMost(TWO_POLLS)
        .ignoreExceptionsInstanceOf(WireException.class)
        .until(() -> endpoints(tracker.endpoint(), "/r1").equals(List.of(a.endpoint())));

    // A server in another process, killed without warning.
    Configuration doomedConf = cluster.serverConf("node-b", "/r1", 16);
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> entry : doomedConf) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    try (ChildJvm doomed = ChildJvm.start(ServerMain.class, stderr, args.toArray(new String[0]))) {
      String endpoint = doomed.awaitLine("READY", 60, TimeUnit.SECONDS).split(" ")[1];
      Awaitility.await()
          .atMost(TWO_POLLS)
          .until(() -> endpoints(tracker.endpoint(), "/r1").contains(endpoint));
      doomed.kill();
      long killed = System.nanoTime();
      Awaitility.await()
          .atMost(TWO_POLLS)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> !endpoints(tracker.endpoint(), "/r1").contains(endpoint));
      assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(TWO_POLLS);
    }

    // A server that stops cleanly leaves the registry at once.
    a.close();
    Awaitility.await()
        .atMost(TWO_POLLS)
        .until(() -> endpoints(tracker.endpoint(), "/r1").isEmpty());
  }

  @Test
  void theFreeListReportsFreeSpaceAndStaysInTheRack() throws Exception {
    MemoryTracker tracker = cluster.tracker("tracker-1", "250ms");
    SpongeServer a = cluster.server("node-a", "/r1", 16);
    SpongeServer b = cluster.server("node-b", "/r2", 32);
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptionsInstanceOf(WireException.class)
        .until(
            () ->
                TrackerClient.freeList(tracker.endpoint(), "/r1").servers.size() == 1
                    && TrackerClient.freeList(tracker.endpoint(), "/r2").servers.size() == 1);
    FreeList r1 = TrackerClient.freeList(tracker.endpoint(), "/r1");
    assertThat(r1.servers).hasSize(1);
    assertThat(r1.servers.get(0).endpoint).isEqualTo(a.endpoint());
    assertThat(r1.servers.get(0).freeChunks).isEqualTo(16);
    // Polled every 250 ms; a loaded CI machine may delay a round, never by seconds.
    assertThat(r1.ageMillis).isBetween(0L, 5000L);
    FreeList r2 = TrackerClient.freeList(tracker.endpoint(), "/r2");
    assertThat(r2.servers.get(0).endpoint).isEqualTo(b.endpoint());
    assertThat(r2.servers.get(0).chunks).isEqualTo(32);
    assertThat(TrackerClient.freeList(tracker.endpoint(), "/r3").servers).isEmpty();
  }
}
