package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        double servedBefore = requests(tracker, "ok");
        double missedBefore = requests(tracker, "no_server_in_rack");

        assertThat(TrackerClient.freeList(tracker.endpoint(), "/rack1").servers).isEmpty();
        assertThat(TrackerClient.freeList(tracker.endpoint(), "/rack1").servers).isEmpty();
        assertThat(TrackerClient.freeList(tracker.endpoint(), "/rack-1").servers).hasSize(1);

        assertThat(requests(tracker, "no_server_in_rack")).isEqualTo(missedBefore + 2);
        assertThat(requests(tracker, "ok")).isEqualTo(servedBefore + 1);
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

  private static double requests(MemoryTracker tracker, String answer) throws Exception {
    String body =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + tracker.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Matcher m =
        Pattern.compile(
                "(?m)^sponge_tracker_free_list_requests_total\\{answer=\""
                    + answer
                    + "\"\\} ([0-9.eE+]+)")
            .matcher(body);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
