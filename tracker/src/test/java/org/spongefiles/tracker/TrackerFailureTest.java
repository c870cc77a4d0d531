package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.curator.test.TestingZooKeeperServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.RandomBytes;

/**
 * When the tracker or ZooKeeper fails, spills go on without waiting long and lose nothing: a new
 * leader answers within seconds; without any tracker or quorum, tasks use what they know.
 */
@Timeout(180)
class TrackerFailureTest {
  private static final int CHUNK = ClusterFixture.CHUNK;

  /** Writes {@code chunks} chunks one by one; returns the longest single write call. */
  private static long writeTimed(OutputStream out, byte[] chunk, int chunks, long pauseMillis)
      throws Exception {
    long longest = 0;
    for (int i = 0; i < chunks; i++) {
      long start = System.nanoTime();
      out.write(chunk);
      longest = Math.max(longest, System.nanoTime() - start);
      Thread.sleep(pauseMillis);
    }
    return TimeUnit.NANOSECONDS.toMillis(longest);
  }

  @Test
  void aKilledLeaderIsReplacedWithinFiveSecondsAndSpillsNeverWaitLong() throws Exception {
    Path stderr = Files.createTempFile("failover", ".err");
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      cluster.server("node-a", "/r1", 256);
      List<ChildJvm> trackers = new ArrayList<>();
      List<String> endpoints = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          Configuration conf = cluster.trackerConf("tracker-" + i, "250ms");
          // The shipped session timeout: the followers see the killed leader's port refuse.
          conf.unset("sponge.zookeeper.session.timeout");
          List<String> args = new ArrayList<>();
          for (Map.Entry<String, String> entry : conf) {
            args.add("-D" + entry.getKey() + "=" + entry.getValue());
          }
          ChildJvm tracker = ChildJvm.start(TrackerMain.class, stderr, args.toArray(new String[0]));
          endpoints.add(tracker.awaitLine("READY", 60, TimeUnit.SECONDS).split(" ")[1]);
          trackers.add(tracker);
        }
        int leader = awaitLeader(endpoints, Duration.ofSeconds(15));

        Configuration taskConf =
            cluster.taskConf("task-node", "/r1", endpoints.toArray(new String[0]));
        try (SpongeTask task = SpongeTask.open(taskConf, "attempt_failover")) {
          SpongeFile file = task.create("through-failover");
          byte[] chunk = RandomBytes.array(3, CHUNK);
          OutputStream out = file.output();
          long before = writeTimed(out, chunk, 20, 10);

          trackers.get(leader).kill();
          long killed = System.nanoTime();
          long during = writeTimed(out, chunk, 60, 20);
          int next = awaitLeader(endpoints, Duration.ofSeconds(10));
          long replacedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
          out.close();

          assertThat(next).isNotEqualTo(leader);
          assertThat(replacedMillis).as("a new leader answers").isLessThan(5000);
          assertThat(Math.max(before, during)).as("longest write call, ms").isLessThan(1500);
          assertThat(file.chunks()).allMatch(c -> c.tier() == TierKind.REMOTE);
          try (SpongeInputStream in = file.input()) {
            byte[] back = in.readAllBytes();
            assertThat(back).hasSize(80 * CHUNK);
            for (int i = 0; i < 80; i++) {
              assertThat(java.util.Arrays.copyOfRange(back, i * CHUNK, (i + 1) * CHUNK))
                  .isEqualTo(chunk);
            }
          }
        }
      } finally {
        for (ChildJvm tracker : trackers) {
          tracker.close();
        }
        Files.deleteIfExists(stderr);
      }
    }
  }

  @Test
  void whileNoTrackerAnswersATaskAsksAtItsRefreshRateNotOncePerChunk() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      cluster.server("node-a", "/r1", 256);
      MemoryTracker tracker = MemoryTracker.start(cluster.trackerConf("tracker-1", "250ms"));
      int port = tracker.address().getPort();
      Configuration taskConf = cluster.taskConf("task-node", "/r1", tracker.endpoint());
      taskConf.unset("sponge.zookeeper.quorum");
      taskConf.set("sponge.tracker.refresh", "200ms");
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptionsInstanceOf(WireException.class)
          .until(() -> !TrackerClient.freeList(tracker.endpoint(), "/r1").servers.isEmpty());
      try (SpongeTask task = SpongeTask.open(taskConf, "attempt_reelection")) {
        SpongeFile file = task.create("through-silence");
        byte[] chunk = RandomBytes.array(5, CHUNK);
        OutputStream out = file.output();
        writeTimed(out, chunk, 10, 0);

        // The leader's port now takes connections and drops them: no tracker answers.
        tracker.close();
        List<Socket> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ServerSocket dropping = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
          Thread acceptor =
              new Thread(
                  () -> {
                    try {
                      while (true) {
                        Socket socket = dropping.accept();
                        accepted.add(socket);
                        socket.close();
                      }
                    } catch (IOException e) {
                      // closed at the end of the test
                    }
                  });
          acceptor.setDaemon(true);
          acceptor.start();
          long start = System.nanoTime();
          writeTimed(out, chunk, 60, 50);
          long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          out.close();

          assertThat(accepted.size())
              .as("requests in %d ms of 60 chunks with a 200 ms refresh", millis)
              .isLessThanOrEqualTo((int) (millis / 200) + 2);
        }
        assertThat(file.chunks()).hasSize(70).allMatch(c -> c.tier() == TierKind.REMOTE);
        try (SpongeInputStream in = file.input()) {
          for (int i = 0; i < 70; i++) {
            assertThat(in.readNBytes(CHUNK)).as("chunk %d", i).isEqualTo(chunk);
          }
        }
      }
    }
  }

  /** Waits until one of the trackers answers a free list as leader; returns its index. */
  private static int awaitLeader(List<String> trackers, Duration within) {
    int[] found = {-1};
    Awaitility.await()
        .atMost(within)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              for (int i = 0; i < trackers.size(); i++) {
                try {
                  TrackerClient.freeList(trackers.get(i), "/r1");
                  found[0] = i;
                  return true;
                } catch (java.io.IOException e) {
                  // not the leader, or dead
                }
              }
              return false;
            });
    return found[0];
  }

  @Test
  void losingTheZooKeeperQuorumKeepsSpillsGoingOnKnownServersThenRecovers() throws Exception {
    try (TestingCluster ensemble = new TestingCluster(3)) {
      ensemble.start();
      try (ClusterFixture cluster = new ClusterFixture(ensemble.getConnectString())) {
        SpongeServer server = cluster.server("node-a", "/r1", 256);
        MemoryTracker tracker = cluster.tracker("tracker-1", "200ms");
        Awaitility.await()
            .atMost(Duration.ofSeconds(15))
            .ignoreExceptionsInstanceOf(WireException.class)
            .until(() -> TrackerClient.freeList(tracker.endpoint(), "/r1").servers.size() == 1);
        try (SpongeTask task =
            SpongeTask.open(
                cluster.taskConf("task-node", "/r1", tracker.endpoint()), "attempt_zk_loss")) {
          SpongeFile before = task.create("before");
          try (OutputStream out = before.output()) {
            out.write(RandomBytes.array(1, 4 * CHUNK));
          }
          assertThat(before.chunks()).allMatch(c -> c.tier() == TierKind.REMOTE);

          List<TestingZooKeeperServer> stopped = new ArrayList<>();
          for (TestingZooKeeperServer zk : ensemble.getServers().subList(0, 2)) {
            zk.stop();
            stopped.add(zk);
          }
          Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> !tracker.isLeader());

          SpongeFile during = task.create("during");
          byte[] chunk = RandomBytes.array(2, CHUNK);
          long longest;
          try (OutputStream out = during.output()) {
            longest = writeTimed(out, chunk, 20, 20);
          }
          assertThat(longest).as("longest write call without a quorum, ms").isLessThan(1500);
          assertThat(during.chunks())
              .as("the last free list still works")
              .allMatch(
                  c -> c.tier() == TierKind.REMOTE && c.location().contains(server.endpoint()));
          try (SpongeInputStream in = during.input()) {
            for (int i = 0; i < 20; i++) {
              assertThat(in.readNBytes(CHUNK)).as("chunk %d", i).isEqualTo(chunk);
            }
            assertThat(in.read()).isEqualTo(-1);
          }

          for (TestingZooKeeperServer zk : stopped) {
            zk.restart();
          }
          Awaitility.await()
              .atMost(Duration.ofSeconds(30))
              .ignoreExceptionsInstanceOf(WireException.class)
              .until(
                  () ->
                      tracker.isLeader()
                          && TrackerClient.freeList(tracker.endpoint(), "/r1").servers.size() == 1);
        }
      }
    }
  }

  @Test
  void aTaskThatStartsWithoutAnyAnsweringTrackerWaitsOnceNotForEveryChunk() throws Exception {
    // A tracker that accepts connections and never answers, and no ZooKeeper to fall back on.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ClusterFixture cluster = new ClusterFixture("")) {
      List<Socket> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    accepted.add(silent.accept());
                  }
                } catch (IOException e) {
                  // closed at the end of the test
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      Configuration conf =
          cluster.taskConf("task-node", "/r1", "127.0.0.1:" + silent.getLocalPort());
      conf.unset("sponge.zookeeper.quorum");
      conf.set("sponge.tracker.refresh", "30s");
      conf.set("sponge.remote.io.timeout", "2s");
      try (SpongeTask task = SpongeTask.open(conf, "attempt_no_tracker")) {
        SpongeFile file = task.create("to-disk");
        byte[] chunk = RandomBytes.array(4, CHUNK);
        long start = System.nanoTime();
        try (OutputStream out = file.output()) {
          for (int i = 0; i < 30; i++) {
            out.write(chunk);
          }
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(millis)
            .as("30 chunks with a 300 ms tracker timeout: one wait, not thirty")
            .isLessThan(2500);
        assertThat(file.chunks()).hasSize(30).allMatch(c -> c.tier() == TierKind.DISK);
        try (SpongeInputStream in = file.input()) {
          for (int i = 0; i < 30; i++) {
            assertThat(in.readNBytes(CHUNK)).as("chunk %d", i).isEqualTo(chunk);
          }
        }
      } finally {
        for (Socket socket : accepted) {
          socket.close();
        }
      }
    }
  }

  @Test
  void aStaleListCostsARefusalThenTheNextServerThenDisk() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      // Servers that report rarely: after its first report, a's listed free space goes stale.
      Configuration rare = cluster.serverConf("node-a", "/r1", 8);
      rare.set("sponge.tracker.report.interval", "1m");
      SpongeServer a = cluster.add(SpongeServer.start(rare));
      SpongeServer b = cluster.server("node-b", "/r1", 4);
      MemoryTracker tracker = cluster.tracker("tracker-1", "1m");
      Awaitility.await()
          .atMost(Duration.ofSeconds(15))
          .ignoreExceptionsInstanceOf(WireException.class)
          .until(() -> TrackerClient.freeList(tracker.endpoint(), "/r1").servers.size() == 2);
      // Another task (not asking the tracker) fills a completely.
      Configuration direct = cluster.taskConf("filler", "/r1");
      direct.set("sponge.remote.servers", a.endpoint());
      try (SpongeTask filler = SpongeTask.open(direct, "attempt_filler")) {
        try (OutputStream out = filler.create("fill").output()) {
          out.write(RandomBytes.array(1, 8 * CHUNK));
        }
        assertThat(a.pool().freeChunks()).isZero();
        try (SpongeTask task =
            SpongeTask.open(
                cluster.taskConf("task-node", "/r1", tracker.endpoint()), "attempt_stale")) {
          SpongeFile file = task.create("stale");
          long start = System.nanoTime();
          try (OutputStream out = file.output()) {
            out.write(RandomBytes.array(2, 7 * CHUNK));
          }
          long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          assertThat(millis).isLessThan(3000);
          assertThat(
                  file.chunks().stream().filter(c -> c.location().contains(b.endpoint())).count())
              .isEqualTo(4);
          assertThat(file.chunks().stream().filter(c -> c.tier() == TierKind.DISK).count())
              .isEqualTo(3);
          assertThat(file.chunks()).noneMatch(c -> c.location().contains(a.endpoint()));
        }
      }
    }
  }
}
