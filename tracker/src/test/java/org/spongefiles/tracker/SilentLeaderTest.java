package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.zookeeper.CreateMode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.LatchParticipants;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.testkit.SpongeTestConf;

/**
 * A leader whose process is gone holds the election until its ZooKeeper session expires; a follower
 * that finds its port refusing removes its latch node and leads within a few leader check
 * intervals, whatever the session timeout. A live leader whose node was removed steps down.
 */
@Timeout(120)
class SilentLeaderTest {

  @Test
  void aFollowerRemovesALeaderWhosePortRefusesAndLeadsWithinSeconds() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      Configuration conf = cluster.trackerConf("t1", "250ms");
      ZooKeeperSettings zookeeperSettings = zookeeper(conf);
      String latch = zookeeperSettings.layout().leaderLatch();
      String dead = "127.0.0.1:" + SpongeTestConf.freePort();
      try (CuratorFramework client = ZooKeeperClients.start(zookeeperSettings)) {
        // A killed leader's node, held by a session that stays open, as a killed leader's is until
        // its session times out.
        client
            .create()
            .creatingParentContainersIfNeeded()
            .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
            .forPath(latch + "/latch-", dead.getBytes(StandardCharsets.UTF_8));
        long start = System.nanoTime();
        try (MemoryTracker tracker = MemoryTracker.start(conf)) {
          assertThat(LatchParticipants.leader(client, latch)).isEqualTo(dead);

          Awaitility.await().atMost(Duration.ofSeconds(5)).until(tracker::isLeader);

          assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5000);
          assertThat(ids(client, latch)).containsExactly(tracker.endpoint());
        }
      }
    }
  }

  @Test
  void aLiveLeaderWhoseNodeWasRemovedStepsDownAndRejoins() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      Configuration conf = cluster.trackerConf("t1", "250ms");
      ZooKeeperSettings zookeeperSettings = zookeeper(conf);
      String latch = zookeeperSettings.layout().leaderLatch();
      try (CuratorFramework client = ZooKeeperClients.start(zookeeperSettings);
          MemoryTracker first = MemoryTracker.start(conf)) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(first::isLeader);
        try (MemoryTracker second = MemoryTracker.start(cluster.trackerConf("t2", "250ms"))) {
          Awaitility.await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> ids(client, latch).size() == 2);

          assertThat(LatchParticipants.remove(client, LatchParticipants.read(client, latch).get(0)))
              .isTrue();

          Awaitility.await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> second.isLeader() && !first.isLeader());
          Awaitility.await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> ids(client, latch).equals(List.of(second.endpoint(), first.endpoint())));
          assertThat(first.isLeader()).isFalse();
          assertThat(second.isLeader()).isTrue();
        }
      }
    }
  }

  private static List<String> ids(CuratorFramework client, String latch) throws Exception {
    return LatchParticipants.read(client, latch).stream()
        .map(p -> p.id)
        .collect(Collectors.toList());
  }

  private static ZooKeeperSettings zookeeper(Configuration conf) {
    return ZooKeeperSettings.from(ConfigCheck.validate(conf, new ClusterOptions()));
  }
}
