package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.server.ServerOptions;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.server.tracking.LeaderLink;

/**
 * The leader sends a rack's list to two of its servers and they forward it to the others, over the
 * servers' own authenticated data ports: every server of the rack answers with the whole rack, the
 * two relays took their lists from the leader and the others only from relays, a change on one
 * forwarded server goes to the leader through a relay's batch and reaches another within the
 * shipped freshness, and when a relay goes the leader picks another and changes still arrive.
 */
@Timeout(120)
class RackRelayTest {
  private static final int CHUNKS = 64;
  private static final String SECRET = "relay test secret of the cluster";

  @Test
  void aRacksListReachesEveryServerThroughTwoRelaysAndSurvivesARelaysDeath() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      MemoryTracker leader =
          cluster.add(MemoryTracker.start(secret(shipped(cluster.trackerConf("t-1", "250ms")))));
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(leader::isLeader);
      List<SpongeServer> rack = new ArrayList<>();
      for (String node : List.of("r1-a", "r1-b", "r1-c", "r1-d")) {
        rack.add(server(cluster, node, "/r1"));
      }
      SpongeServer alone = server(cluster, "r2-a", "/r2");
      awaitWholeRack(rack);

      // Lists a server must not take: another leader's, another rack's, an older one.
      FreeList empty = new FreeList(0, "/r1", List.of());
      LeaderLink target = rack.get(3).leaderLink();
      target.relayed(new RelayedList("not-the-leader:1", Long.MAX_VALUE, List.of(), empty));
      target.relayed(
          new RelayedList(
              leader.endpoint(), Long.MAX_VALUE, List.of(), new FreeList(0, "/r2", List.of())));
      target.relayed(new RelayedList(leader.endpoint(), 1, List.of(), empty));
      Thread.sleep(300);
      assertThat(ask(rack.get(3), "/r1").servers)
          .as("after three lists it must not take")
          .hasSize(4);
      // A holder of the cluster secret may send a list as the leader, as it may send reports; one
      // dated far ahead holds only until the leader's next lists replace it.
      target.relayed(
          new RelayedList(
              leader.endpoint(),
              Long.MAX_VALUE,
              List.of(),
              new FreeList(0, "/r1", List.of(new FreeList.Entry("forged:1", 64, 64, 1 << 16)))));
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () ->
                  assertThat(ask(rack.get(3), "/r1").servers)
                      .extracting(e -> e.endpoint)
                      .doesNotContain("forged:1")
                      .hasSize(4));

      List<SpongeServer> relays = relays(rack);
      List<SpongeServer> forwarded = new ArrayList<>(rack);
      forwarded.removeAll(relays);
      assertThat(relays).as("servers of /r1 that got lists from the leader").hasSize(2);
      assertThat(forwarded)
          .allSatisfy(
              s -> {
                assertThat(s.leaderLink().listsFromRelays()).isPositive();
                assertThat(s.leaderLink().listsFromLeader()).isZero();
              });
      assertThat(alone.leaderLink().listsFromLeader()).as("a rack of one").isPositive();
      assertThat(ask(alone, "/r2").servers)
          .extracting(e -> e.endpoint)
          .containsExactly(alone.endpoint());

      try (RemoteConnection borrower = connect(forwarded.get(0))) {
        long ms = changeAndWait(borrower, forwarded.get(0), forwarded.get(1));
        assertThat(ms)
            .as("ms from a change on one forwarded server to another's answer")
            .isLessThan(1500);
        // That change went to the leader through a relay, in a batch.
        assertThat(forwarded.get(0).leaderLink().reportsViaRelay())
            .as("reports %s sent through its relay", forwarded.get(0).endpoint())
            .isPositive();
        assertThat(relays.stream().mapToLong(r -> r.leaderLink().reportsCarried()).sum())
            .as("rack peers' reports the relays carried")
            .isPositive();
        assertThat(forwarded)
            .as("rack peers report to the first relay of their list, the same for all")
            .allSatisfy(s -> assertThat(s.leaderLink().reportsCarried()).isZero());
        assertMetricsShowThePaths(relays, forwarded, alone);
        // A relay carries reports only of servers its rack list names.
        for (SpongeServer relay : relays) {
          assertThatThrownBy(
                  () ->
                      relay.leaderLink().carry(new FreeReport("forged:1", 1 << 16, 64, 64), "test"))
              .isInstanceOf(WireException.class)
              .hasMessageContaining("forged:1")
              .hasMessageContaining("/r1");
        }

        SpongeServer dead = relays.get(0);
        dead.close();
        rack.remove(dead);
        awaitWholeRack(rack);
        Awaitility.await()
            .atMost(Duration.ofSeconds(5))
            .untilAsserted(() -> assertThat(relays(rack)).hasSize(2));
        ms = changeAndWait(borrower, forwarded.get(0), relays.get(1));
        assertThat(ms).as("ms to the surviving relay, after the other died").isLessThan(1500);
        SpongeServer stillForwarded =
            rack.stream()
                .filter(s -> s != relays.get(1) && s != forwarded.get(0))
                .findFirst()
                .orElseThrow();
        ms = changeAndWait(borrower, forwarded.get(0), stillForwarded);
        assertThat(ms)
            .as("ms to %s after the relay's death", stillForwarded.endpoint())
            .isLessThan(1500);
      }
    }
  }

  /**
   * Each server's metrics tell the operator which path its reports and lists take: the forwarded
   * servers report through a relay and take lists from one, the relays carry their peers' reports
   * in batches, a rack of one reports to the leader itself; every one holds a list.
   */
  private static void assertMetricsShowThePaths(
      List<SpongeServer> relays, List<SpongeServer> forwarded, SpongeServer alone)
      throws Exception {
    for (SpongeServer server : forwarded) {
      int port = server.metricsPort();
      assertThat(ClusterFixture.metric(port, "sponge_server_tracker_linked")).isEqualTo(1);
      assertThat(ClusterFixture.metric(port, "sponge_server_tracker_reports_total{path=\"relay\"}"))
          .as("%s's reports through its relay", server.endpoint())
          .isPositive();
      assertThat(ClusterFixture.metric(port, "sponge_server_rack_lists_total{source=\"relay\"}"))
          .isPositive();
      assertThat(ClusterFixture.metric(port, "sponge_server_rack_lists_total{source=\"leader\"}"))
          .isZero();
      assertThat(ClusterFixture.metric(port, "sponge_server_relay_batches_total")).isZero();
    }
    double carried = 0;
    double batches = 0;
    for (SpongeServer relay : relays) {
      int port = relay.metricsPort();
      assertThat(ClusterFixture.metric(port, "sponge_server_rack_lists_total{source=\"leader\"}"))
          .isPositive();
      carried += ClusterFixture.metric(port, "sponge_server_relay_carried_reports_total");
      batches += ClusterFixture.metric(port, "sponge_server_relay_batches_total");
    }
    assertThat(carried).as("rack peers' reports carried, by the relays' metrics").isPositive();
    assertThat(batches).as("batches sent, by the relays' metrics").isPositive();
    int port = alone.metricsPort();
    assertThat(ClusterFixture.metric(port, "sponge_server_tracker_reports_total{path=\"leader\"}"))
        .as("a rack of one reports to the leader itself")
        .isPositive();
    assertThat(ClusterFixture.metric(port, "sponge_server_tracker_reports_total{path=\"relay\"}"))
        .isZero();
  }

  /** Servers of {@code rack} that took a list from the leader within the last second. */
  private static List<SpongeServer> relays(List<SpongeServer> rack) throws InterruptedException {
    long[] before = rack.stream().mapToLong(s -> s.leaderLink().listsFromLeader()).toArray();
    Thread.sleep(1000); // the leader sends each rack at least every keepalive (here 250 ms)
    List<SpongeServer> relays = new ArrayList<>();
    for (int i = 0; i < rack.size(); i++) {
      if (rack.get(i).leaderLink().listsFromLeader() > before[i]) {
        relays.add(rack.get(i));
      }
    }
    return relays;
  }

  private static void awaitWholeRack(List<SpongeServer> rack) {
    List<String> endpoints = rack.stream().map(SpongeServer::endpoint).collect(Collectors.toList());
    Awaitility.await()
        .atMost(Duration.ofSeconds(15))
        .ignoreExceptionsInstanceOf(WireException.class)
        .untilAsserted(
            () -> {
              for (SpongeServer server : rack) {
                FreeList list = ask(server, "/r1");
                assertThat(list.servers)
                    .as("%s's list", server.endpoint())
                    .extracting(e -> e.endpoint)
                    .containsExactlyInAnyOrderElementsOf(endpoints);
              }
            });
  }

  /** The shipped report interval; the keepalive short, so that relays are seen within a second. */
  private static Configuration shipped(Configuration conf) {
    conf.unset("sponge.tracker.report.interval");
    conf.set("sponge.tracker.report.keepalive", "250ms");
    return conf;
  }

  private static Configuration secret(Configuration conf) {
    SpongeOptions.AUTH_SECRET.set(conf, SECRET);
    return conf;
  }

  private static SpongeServer server(ClusterFixture cluster, String node, String rack)
      throws Exception {
    Configuration conf = secret(shipped(cluster.serverConf(node, rack, CHUNKS)));
    ServerOptions.METRICS_PORT.set(conf, 0);
    return cluster.add(SpongeServer.start(conf));
  }

  /** Takes two chunks on {@code changed}; returns ms until {@code asked} lists the new count. */
  private static long changeAndWait(
      RemoteConnection borrower, SpongeServer changed, SpongeServer asked) throws Exception {
    return ListChanges.changeAndWait(borrower, changed, () -> ask(asked, "/r1"));
  }

  private static FreeList ask(SpongeServer server, String rack) throws Exception {
    try (RemoteConnection task = connect(server, "attempt_probe")) {
      return task.freeList(rack);
    }
  }

  private static RemoteConnection connect(SpongeServer server) throws Exception {
    return connect(server, "attempt_borrower");
  }

  private static RemoteConnection connect(SpongeServer server, String task) throws Exception {
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        new ClientIdentity("", 999, 0, 5, task),
        ClusterSecret.of(SECRET.getBytes(StandardCharsets.UTF_8)),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }
}
