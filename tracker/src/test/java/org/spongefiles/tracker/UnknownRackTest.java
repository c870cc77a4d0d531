package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;

/**
 * A task asking for a rack that holds no server (an empty or misspelt {@code sponge.rack}) is
 * counted by the tracker under its own answer and logged once per rack, naming the racks that do
 * have servers.
 */
@Timeout(120)
class UnknownRackTest {

  @Test
  void aRackWithoutServersIsCountedApartFromServedLists() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      Configuration conf = cluster.trackerConf("t1", "250ms");
      conf.setInt("sponge.tracker.metrics.port", 0);
      try (MemoryTracker tracker = MemoryTracker.start(conf)) {
        cluster.server("node-a", "/rack-1", 8);
        Awaitility.await()
            .atMost(Duration.ofSeconds(20))
            .ignoreExceptionsInstanceOf(WireException.class)
            .until(() -> !TrackerClient.freeList(tracker.endpoint(), "/rack-1").servers.isEmpty());
        double servedBefore = ClusterFixture.freeListRequests(tracker, "ok");
        double missedBefore = ClusterFixture.freeListRequests(tracker, "no_server_in_rack");

        assertThat(TrackerClient.freeList(tracker.endpoint(), "/rack1").servers).isEmpty();
        assertThat(TrackerClient.freeList(tracker.endpoint(), "/rack1").servers).isEmpty();
        assertThat(TrackerClient.freeList(tracker.endpoint(), "/rack-1").servers).hasSize(1);

        assertThat(ClusterFixture.freeListRequests(tracker, "no_server_in_rack"))
            .isEqualTo(missedBefore + 2);
        assertThat(ClusterFixture.freeListRequests(tracker, "ok")).isEqualTo(servedBefore + 1);
      }
    }
  }

  @Test
  void eachUnknownRackIsLoggedOnceWithTheKnownRacks() {
    List<String> lines = new ArrayList<>();
    UnknownRacks racks = new UnknownRacks(lines::add);
    RackView view =
        new RackView(
            Map.of("/rack-1", List.of(new FreeList.Entry("10.0.0.1:7071", 8, 8, 1024))), 1, 1);

    racks.asked("/rack1", "10.0.0.9:40000", view);
    racks.asked("/rack1", "10.0.0.9:40001", view);
    for (int i = 0; i < 2 * UnknownRacks.LOGGED_RACKS; i++) {
      racks.asked("/r" + i, "10.0.0.9:40002", view);
    }

    assertThat(lines).hasSize(UnknownRacks.LOGGED_RACKS);
    assertThat(lines.get(0))
        .isEqualTo(
            "A task at 10.0.0.9:40000 asked for rack '/rack1', where no sponge server is"
                + " registered (racks with servers: [/rack-1]); its tasks get no remote memory."
                + " Check sponge.rack and the topology script (net.topology.script.file.name)"
                + " on that node and on the servers' nodes");
  }
}
