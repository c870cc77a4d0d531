package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.RandomBytes;

/**
 * Servers report to the leader and the leader pushes rack lists back: a task gets its list from its
 * own node's server, not from the tracker; a change on one server is in the other servers' answers
 * within about a second at the shipped report interval; and when the leader goes, servers keep
 * answering from their last list and follow the new leader.
 */
@Timeout(120)
class LocalFreeListTest {
  private static final int CHUNKS = 64;

  /** The shipped timing, not the fixture's faster one: staleness is measured against it. */
  private static Configuration shipped(Configuration conf) {
    conf.unset("sponge.tracker.report.interval");
    return conf;
  }

  @Test
  void tasksAskTheirServerAndChangesArriveWithinASecondAcrossATakeover() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      MemoryTracker first = tracker(cluster, "tracker-1");
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(first::isLeader);
      MemoryTracker second = tracker(cluster, "tracker-2"); // joins as the follower
      SpongeServer local = server(cluster, "r1-a", "/r1");
      SpongeServer other = server(cluster, "r1-b", "/r1");
      server(cluster, "r2-a", "/r2");
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptionsInstanceOf(WireException.class)
          .until(() -> ask(local, "/r1").servers.size() == 2);
      assertThat(ask(local, "/r1").servers)
          .extracting(e -> e.endpoint)
          .containsExactlyInAnyOrder(local.endpoint(), other.endpoint());

      Configuration taskConf =
          cluster.taskConf("task-a", "/r1", first.endpoint(), second.endpoint());
      SpongeOptions.SERVER_ADDRESS.set(taskConf, local.endpoint());
      try (SpongeTask task = SpongeTask.open(taskConf, "attempt_local_list")) {
        SpongeFile file = task.create("via-local-server");
        byte[] digest;
        try (OutputStream out = file.output()) {
          digest = RandomBytes.write(out, 5, 12L * ClusterFixture.CHUNK);
        }
        assertThat(file.chunks()).allMatch(c -> c.tier() == TierKind.REMOTE);
        assertThat(file.chunks())
            .allMatch(
                c ->
                    c.location().contains(local.endpoint())
                        || c.location().contains(other.endpoint()));
        try (SpongeInputStream in = file.input()) {
          assertThat(RandomBytes.read(in, 6).sha256).isEqualTo(digest);
        }
      }
      assertThat(
              ClusterFixture.freeListRequests(first, "ok")
                  + ClusterFixture.freeListRequests(second, "ok"))
          .as("free lists the trackers answered tasks")
          .isZero();

      try (RemoteConnection borrower = connect(other)) {
        List<Long> staleness = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          staleness.add(changeAndWait(borrower, other, local));
        }
        assertThat(staleness)
            .as("ms from a change on r1-b to r1-a's answer")
            .allMatch(ms -> ms < 1500);

        first.close(); // leaves the election: tracker-2 leads at once
        long gapEnd = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < gapEnd) {
          // Never NOT_LEADER: the server answers from its last list while the leader changes.
          assertThat(ask(local, "/r1").servers).hasSize(2);
          Thread.sleep(50);
        }
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(second::isLeader);
        staleness.add(changeAndWait(borrower, other, local));
        assertThat(staleness.get(staleness.size() - 1))
            .as("a change after the takeover, ms")
            .isLessThan(1500);
        Awaitility.await()
            .atMost(Duration.ofSeconds(5))
            .ignoreExceptionsInstanceOf(WireException.class)
            .until(() -> TrackerClient.freeList(second.endpoint(), "/r1").servers.size() == 2);
      }
    }
  }

  private static MemoryTracker tracker(ClusterFixture cluster, String name) throws Exception {
    Configuration conf = shipped(cluster.trackerConf(name, "250ms"));
    conf.setInt("sponge.tracker.metrics.port", 0);
    return cluster.add(MemoryTracker.start(conf));
  }

  private static SpongeServer server(ClusterFixture cluster, String node, String rack)
      throws Exception {
    return cluster.add(SpongeServer.start(shipped(cluster.serverConf(node, rack, CHUNKS))));
  }

  /** Takes two chunks on {@code changed}; returns ms until {@code asked} lists the new count. */
  private static long changeAndWait(
      RemoteConnection borrower, SpongeServer changed, SpongeServer asked) throws Exception {
    return ListChanges.changeAndWait(borrower, changed, () -> ask(asked, "/r1"));
  }

  private static FreeList ask(SpongeServer server, String rack) throws Exception {
    return TrackerClient.freeList(server.endpoint(), rack);
  }

  private static RemoteConnection connect(SpongeServer server) throws Exception {
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        new ClientIdentity("", 999, 0, 5, "attempt_borrower"),
        null,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }
}
