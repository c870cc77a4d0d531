package org.spongefiles.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.zookeeper.CreateMode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ServerRegistry;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.server.ServerOptions;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.server.report.RackStatus;
import org.spongefiles.server.report.SpongeStatus;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.tracker.MemoryTracker;
import org.spongefiles.tracker.TrackerOptions;

/**
 * {@code bin/sponge status} against a real rack in this JVM: an embedded ZooKeeper, a memory
 * tracker and two sponge servers on 127.0.0.1 with their metrics endpoints, and a task on a third
 * node holding chunks of both.
 */
@Timeout(120)
class SpongeStatusTest {
  private static final int CHUNK = 64 * 1024;
  private static final String TASK = "attempt_1700000000000_0042_r_000003_0";

  private TestingServer zookeeper;
  private final List<Path> pools = new ArrayList<>();
  private final List<SpongeServer> servers = new ArrayList<>();
  private MemoryTracker tracker;

  @BeforeEach
  void startRack() throws Exception {
    zookeeper = new TestingServer();
    servers.add(SpongeServer.start(serverConf("node-a", "/rack-1", 2L << 20)));
    servers.add(SpongeServer.start(serverConf("node-b", "/rack-2", 1L << 20)));
    Configuration trackerConf =
        SpongeTestConf.loopbackTracker(base("tracker", "/rack-1"), "tracker", "1s");
    TrackerOptions.METRICS_PORT.set(trackerConf, 0);
    tracker = MemoryTracker.start(trackerConf);
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(tracker::isLeader);
  }

  @AfterEach
  void stopRack() throws IOException {
    if (tracker != null) {
      tracker.close();
    }
    servers.forEach(SpongeServer::close);
    zookeeper.close();
    pools.forEach(TestDirs::deleteTree);
  }

  private Configuration base(String node, String rack) {
    Configuration conf = new Configuration(false);
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, zookeeper.getConnectString());
    ClusterOptions.RACK.set(conf, rack);
    SpongeOptions.NODE_ID.set(conf, node);
    SpongeOptions.CHUNK_SIZE.set(conf, 64L << 10);
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    return conf;
  }

  private Configuration serverConf(String node, String rack, long poolBytes) {
    Path pool = TestDirs.newShmDir("status-" + node);
    pools.add(pool);
    Configuration conf = SpongeTestConf.loopbackServer(base(node, rack), node, pool, poolBytes);
    ServerOptions.METRICS_PORT.set(conf, 0);
    return conf;
  }

  private Result status(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("-Dsponge.zookeeper.quorum=" + zookeeper.getConnectString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SpongeStatus.run(
            all,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** A task of a third node (it names node-b's server as its node's) holding chunks of a server. */
  private RemoteConnection task(SpongeServer server, String taskId) throws IOException {
    ClientIdentity identity =
        new ClientIdentity(
            servers.get(1).endpoint(),
            ProcessLiveness.currentPid(),
            ProcessLiveness.currentStartMillis(),
            ChunkOwner.taskHash(taskId),
            taskId);
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        identity,
        null,
        Duration.ofSeconds(5),
        Duration.ofSeconds(5));
  }

  @Test
  void reportsTheLeaderEveryServerAndTheTasksHoldingTheMostMemory() throws Exception {
    SpongeServer a = servers.get(0);
    SpongeServer b = servers.get(1);
    try (RemoteConnection big = task(a, TASK);
        RemoteConnection small = task(a, "attempt_1700000000000_0042_r_000004_0")) {
      List<ChunkHandle> held = big.allocate(5);
      small.allocate(2);
      assertThat(held).hasSize(5);

      Result text = status("status");
      assertThat(text.code).as(text.err).isEqualTo(RackStatus.OK);
      assertThat(text.out)
          .contains("Tracker leader: " + tracker.endpoint())
          .contains(a.endpoint())
          .contains(b.endpoint())
          .contains("/rack-1")
          .contains("/rack-2");
      assertThat(text.out.substring(text.out.indexOf("Tasks holding")))
          .as("the largest holder first, with its bytes and server")
          .containsSubsequence(TASK, "320.0 KiB", a.endpoint(), "_r_000004_0", "128.0 KiB");

      Result json = status("report", "--json");
      assertThat(json.code).as(json.err).isZero();
      JsonNode root = new ObjectMapper().readTree(json.out);
      assertThat(root.get("leader").asText()).isEqualTo(tracker.endpoint());
      JsonNode serverA = server(root, a.endpoint());
      assertThat(serverA.get("rack").asText()).isEqualTo("/rack-1");
      assertThat(serverA.get("poolBytes").asLong()).isEqualTo(32L * CHUNK);
      assertThat(serverA.get("usedBytes").asLong()).isEqualTo(7L * CHUNK);
      assertThat(serverA.get("freeBytes").asLong()).isEqualTo(25L * CHUNK);
      assertThat(serverA.get("reservedBytes").asLong()).isEqualTo(7L * CHUNK);
      assertThat(serverA.get("remoteTaskBytes").asLong()).isEqualTo(7L * CHUNK);
      assertThat(serverA.get("localTaskBytes").asLong()).isZero();
      JsonNode serverB = server(root, b.endpoint());
      assertThat(serverB.get("poolBytes").asLong()).isEqualTo(16L * CHUNK);
      assertThat(serverB.get("usedBytes").asLong()).isZero();
      assertThat(serverA.get("connections").asLong() - serverB.get("connections").asLong())
          .as("both have the tracker's poll connection; A the two tasks' too, not the report's")
          .isEqualTo(2);
      assertThat(root.get("topTasks").get(0).get("task").asText()).isEqualTo(TASK);
      assertThat(root.get("topTasks").get(0).get("bytes").asLong()).isEqualTo(5L * CHUNK);
      assertThat(root.get("topTasks").get(0).get("server").asText()).isEqualTo(a.endpoint());

      big.free(held);
    }
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              JsonNode root = new ObjectMapper().readTree(status("status", "--json").out);
              assertThat(server(root, a.endpoint()).get("usedBytes").asLong())
                  .as("the small task still holds its chunks: its process lives")
                  .isEqualTo(2L * CHUNK);
              assertThat(root.get("topTasks").get(0).get("task").asText()).endsWith("_r_000004_0");
            });
  }

  @Test
  void aServerWithoutMetricsPortStillReportsItsPoolAndExitsZero() throws Exception {
    Configuration conf = serverConf("node-c", "/rack-1", 1L << 20);
    ServerOptions.METRICS_PORT.set(conf, -1);
    SpongeServer c = SpongeServer.start(conf);
    servers.add(c);
    try (RemoteConnection task = task(c, TASK)) {
      task.allocate(3);
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> status("status").out.contains(c.endpoint()));

      Result text = status("status");
      assertThat(text.code).as(text.out).isEqualTo(RackStatus.OK);
      String row =
          text.out.lines().filter(l -> l.startsWith(c.endpoint())).findFirst().orElseThrow();
      assertThat(row)
          .contains("1.0 MiB", "192.0 KiB", "832.0 KiB", "(no metrics port)")
          .doesNotContain("UNREACHABLE");
      JsonNode server =
          server(new ObjectMapper().readTree(status("status", "--json").out), c.endpoint());
      assertThat(server.get("reachable").asBoolean()).isTrue();
      assertThat(server.get("metrics").asBoolean()).isFalse();
      assertThat(server.get("usedBytes").asLong()).isEqualTo(3L * CHUNK);
      assertThat(server.has("reservedBytes")).isFalse();
    }
  }

  @Test
  void aRegisteredServerThatDoesNotAnswerExitsTwoAndNoLeaderExitsOne() throws Exception {
    int deadPort = freePort();
    ZooKeeperSettings ghostSettings =
        ZooKeeperSettings.from(
            ConfigCheck.validate(base("ghost", "/rack-1"), new ClusterOptions()));
    try (CuratorFramework client = ZooKeeperClients.start(ghostSettings);
        Closeable ghost =
            ServerRegistry.register(
                client,
                ghostSettings.layout(),
                new ServerRegistration(
                    ServerAddress.parse("127.0.0.1:" + deadPort), "/rack-1", 8, CHUNK, 1))) {
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> status("status").out.contains("127.0.0.1:" + deadPort));
      Result down = status("status");
      assertThat(down.code).isEqualTo(RackStatus.SERVER_UNREACHABLE);
      assertThat(down.out).contains("127.0.0.1:" + deadPort + " ").contains("UNREACHABLE");
      JsonNode root = new ObjectMapper().readTree(status("status", "--json").out);
      assertThat(server(root, "127.0.0.1:" + deadPort).get("reachable").asBoolean()).isFalse();
      assertThat(root.get("exitCode").asInt()).isEqualTo(RackStatus.SERVER_UNREACHABLE);
    }

    tracker.close();
    tracker = null;
    Result leaderless = status("status");
    assertThat(leaderless.code).isEqualTo(RackStatus.LEADER_MISSING);
    assertThat(leaderless.out).contains("Tracker leader: NONE");
    assertThat(leaderless.out).contains(servers.get(0).endpoint());
  }

  @Test
  void aLeaderWhosePortRefusesIsNoLeaderAndExitsOne() throws Exception {
    tracker.close();
    tracker = null;
    ZooKeeperSettings settings =
        ZooKeeperSettings.from(
            ConfigCheck.validate(base("ghost", "/rack-1"), new ClusterOptions()));
    String dead = "127.0.0.1:" + freePort();
    try (CuratorFramework client = ZooKeeperClients.start(settings)) {
      // A killed leader's latch node outlives it until its ZooKeeper session expires.
      client
          .create()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
          .forPath(
              settings.layout().leaderLatch() + "/latch-", dead.getBytes(StandardCharsets.UTF_8));

      Result text = status("status");
      assertThat(text.code).as(text.out).isEqualTo(RackStatus.LEADER_MISSING);
      assertThat(text.out)
          .contains("Tracker leader: NONE (" + dead + " holds the election but does not answer");
      JsonNode root = new ObjectMapper().readTree(status("status", "--json").out);
      assertThat(root.get("leader").isNull()).isTrue();
      assertThat(root.get("leaderProblem").asText()).startsWith(dead);
      assertThat(root.get("exitCode").asInt()).isEqualTo(RackStatus.LEADER_MISSING);
    }
  }

  @Test
  void badUsageExits64AndAnUnreachableZooKeeperExits3() throws Exception {
    assertThat(status("stats").code).isEqualTo(RackStatus.USAGE);
    assertThat(status("status", "--verbose").code).isEqualTo(RackStatus.USAGE);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SpongeStatus.run(
            List.of(
                "status",
                "-Dsponge.zookeeper.quorum=127.0.0.1:" + freePort(),
                "-Dsponge.zookeeper.connect.timeout=1s"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(RackStatus.OTHER_FAILURE);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("cannot reach ZooKeeper")
        .contains("sponge.zookeeper.quorum");
    int noQuorum =
        SpongeStatus.run(
            List.of("status"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(noQuorum).isEqualTo(RackStatus.OTHER_FAILURE);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("sponge.zookeeper.quorum");
  }

  private static JsonNode server(JsonNode root, String address) {
    for (JsonNode server : root.get("servers")) {
      if (server.get("address").asText().equals(address)) {
        return server;
      }
    }
    throw new AssertionError("no server " + address + " in " + root);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static final class Result {
    final int code;
    final String out;
    final String err;

    Result(int code, String out, String err) {
      this.code = code;
      this.out = out;
      this.err = err;
    }
  }
}
