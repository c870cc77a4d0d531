package org.spongefiles.it.merger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.RemoteUnavailable;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.it.ReadmeMapredSite;
import org.spongefiles.server.ServerOptions;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.CapturedLog;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.tracker.MemoryTracker;
import org.spongefiles.tracker.TrackerOptions;
import org.spongefiles.workloads.median.MedianRun;

/**
 * A rack set up as docs/operations.md says (ZooKeeper, a tracker and two sponge servers in rack
 * /rack-1, all with the cluster secret), and LocalJobRunner median jobs configured with the
 * README's mapred-site keys: complete, the reducer spills to the servers; with a key left out or
 * wrong, it says once, in one WARN naming the key and value, why it has no remote memory, counts
 * the reason in the SpongeFiles counters, and spills to its pool and disk.
 */
@Timeout(300)
class RemoteReachJobTest {
  private static final String RACK = "/rack-1";
  private static final long NUMBERS = 200_000;
  private static final long CHUNK = 64 << 10;

  private static TestingServer zookeeper;
  private static Path root;
  private static Path secret;
  private static final List<SpongeServer> servers = new ArrayList<>();
  private static MemoryTracker tracker;
  private static Path input;

  private Path work;
  private final CapturedLog warnings = new CapturedLog(Level.WARN);

  @BeforeAll
  static void startTheRack() throws Exception {
    zookeeper = new TestingServer(true);
    root = TestDirs.newShmDir("remote-reach");
    secret = root.resolve("secret");
    Files.writeString(secret, "a cluster secret of the rack\n");
    for (String node : List.of("node-b", "node-c")) {
      servers.add(SpongeServer.start(serverConf(node)));
    }
    tracker = MemoryTracker.start(trackerConf());
    input = root.resolve("input");
    new NumbersGenerator(NUMBERS, 4, NumbersGenerator.Shape.SKEWED, 29).write(input);
  }

  @AfterAll
  static void stopTheRack() throws Exception {
    if (tracker != null) {
      tracker.close();
    }
    for (SpongeServer server : servers) {
      server.close();
    }
    if (zookeeper != null) {
      zookeeper.close();
    }
    TestDirs.deleteTree(root);
  }

  private static Configuration daemon(String node) {
    Configuration conf = new Configuration(false);
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, zookeeper.getConnectString());
    ClusterOptions.RACK.set(conf, RACK);
    SpongeOptions.AUTH_SECRET_FILE.set(conf, secret.toString());
    SpongeOptions.NODE_ID.set(conf, node);
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    return conf;
  }

  private static Configuration serverConf(String node) throws IOException {
    Configuration conf = daemon(node);
    int port = freePort();
    ServerOptions.BIND_HOST.set(conf, "127.0.0.1");
    SpongeOptions.SERVER_PORT.set(conf, port);
    SpongeOptions.SERVER_ADDRESS.set(conf, "127.0.0.1:" + port);
    ServerOptions.METRICS_PORT.set(conf, -1);
    SpongeOptions.POOL_DIR.set(conf, Files.createDirectories(root.resolve(node)).toString());
    SpongeOptions.POOL_SIZE.set(conf, 32L << 20);
    SpongeOptions.CHUNK_SIZE.set(conf, CHUNK);
    return conf;
  }

  private static Configuration trackerConf() throws IOException {
    Configuration conf = daemon("tracker");
    int port = freePort();
    TrackerOptions.BIND_HOST.set(conf, "127.0.0.1");
    TrackerOptions.PORT.set(conf, port);
    TrackerOptions.ADDRESS.set(conf, "127.0.0.1:" + port);
    TrackerOptions.METRICS_PORT.set(conf, -1);
    TrackerOptions.LEADER_CHECK_INTERVAL.set(conf, Duration.ofMillis(250));
    return conf;
  }

  @BeforeEach
  void setUp() throws Exception {
    work = Files.createTempDirectory("remote-reach-job");
    Logger.getLogger(RemoteUnavailable.class).addAppender(warnings);
    awaitTrackerLists(2, Duration.ofSeconds(30));
  }

  @AfterEach
  void tearDown() {
    Logger.getLogger(RemoteUnavailable.class).removeAppender(warnings);
    TestDirs.deleteTree(work);
  }

  /**
   * The README's mapred-site keys with this rack's values, plus what the test's machine needs: a
   * small pool of the task's own, its disk, and a shuffle small enough to spill.
   */
  private Configuration readmeConf() throws IOException {
    Path pool = Files.createDirectories(work.resolve("pool"));
    Path disk = Files.createDirectories(work.resolve("disk"));
    Configuration conf = SpongeTestConf.of(pool, disk, 4 * CHUNK, CHUNK);
    Map<String, String> readme = ReadmeMapredSite.properties();
    assertThat(readme)
        .containsKeys(
            "mapreduce.job.reduce.shuffle.consumer.plugin.class",
            "sponge.pool.size",
            "sponge.tracker.addresses",
            "sponge.auth.secret.file",
            "sponge.rack");
    for (Map.Entry<String, String> key : readme.entrySet()) {
      conf.set(key.getKey(), key.getValue());
    }
    SpongeOptions.POOL_SIZE.set(conf, 4 * CHUNK);
    ClusterOptions.TRACKER_ADDRESSES.set(conf, List.of(tracker.endpoint()));
    SpongeOptions.AUTH_SECRET_FILE.set(conf, secret.toString());
    ClusterOptions.RACK.set(conf, RACK);
    SpongeOptions.SERVER_ADDRESS.set(conf, "");
    conf.setLong("mapreduce.reduce.memory.totalbytes", 1L << 20);
    conf.setInt("mapreduce.task.io.sort.mb", 8);
    return conf;
  }

  private MedianRun.Result run(Configuration conf) throws Exception {
    MedianRun.Result result =
        MedianRun.run(
            conf, MedianRun.Merger.SPONGE, input, work.resolve("job"), new long[] {NUMBERS});
    assertThat(result.succeeded).isTrue();
    assertThat(result.output).endsWith("\t" + NUMBERS + "\n");
    assertThat(result.spongeBytesWritten()).as("the reducer spilled").isPositive();
    return result;
  }

  @Test
  void theReadmeKeysReachTheRacksServers() throws Exception {
    MedianRun.Result result = run(readmeConf());

    assertThat(result.sponge("REMOTE_BYTES_WRITTEN")).isPositive();
    assertThat(result.sponge("REMOTE_BYTES_READ")).isEqualTo(result.sponge("REMOTE_BYTES_WRITTEN"));
    assertThat(result.sponge("REMOTE_UNAVAILABLE")).isZero();
    assertThat(warnings.messages).isEmpty();
  }

  @Test
  void withoutTheRackTheTaskSaysSoOnceAndSpillsLocally() throws Exception {
    Configuration conf = readmeConf();
    conf.unset(ClusterOptions.RACK.key());

    MedianRun.Result result = run(conf);

    assertNoRemoteFor(result, "NO_RACK");
    assertThat(warnings.messages.get(0))
        .contains("knows no sponge server in rack /default-rack")
        .contains("sponge.rack and net.topology.script.file.name are not set");
  }

  @Test
  void aMisspeltRackIsSaidOnceWithTheRack() throws Exception {
    Configuration conf = readmeConf();
    ClusterOptions.RACK.set(conf, "/rack1");

    MedianRun.Result result = run(conf);

    assertNoRemoteFor(result, "NO_SERVER_IN_RACK");
    assertThat(warnings.messages.get(0))
        .contains("knows no sponge server in rack /rack1 (sponge.rack=/rack1)");
  }

  @Test
  void withoutTheSecretTheTaskSaysSoOnceAndSpillsLocally() throws Exception {
    Configuration conf = readmeConf();
    conf.unset(SpongeOptions.AUTH_SECRET_FILE.key());

    MedianRun.Result result = run(conf);

    assertNoRemoteFor(result, "NO_SECRET");
    assertThat(warnings.messages.get(0))
        .contains("sponge.auth.secret.file is not set and the memory tracker " + tracker.endpoint())
        .contains("requires the cluster secret");
  }

  private void assertNoRemoteFor(MedianRun.Result result, String reason) {
    assertThat(warnings.messages).as("one WARN for the one reduce task").hasSize(1);
    assertThat(warnings.messages.get(0))
        .startsWith("No remote memory for attempt_")
        .contains("(" + reason + ")")
        .endsWith(
            "its chunks go to the pool, then the disk tiers instead (counter SpongeFiles"
                + " REMOTE_UNAVAILABLE_"
                + reason
                + ")");
    assertThat(result.sponge("REMOTE_UNAVAILABLE")).isEqualTo(1);
    assertThat(result.sponge("REMOTE_UNAVAILABLE_" + reason)).isEqualTo(1);
    assertThat(result.sponge("REMOTE_BYTES_WRITTEN")).isZero();
    assertThat(result.sponge("POOL_BYTES_WRITTEN")).isPositive();
    assertThat(result.sponge("DISK_BYTES_WRITTEN")).isPositive();
    assertThat(result.sponge("POOL_BYTES_WRITTEN") + result.sponge("DISK_BYTES_WRITTEN"))
        .isEqualTo(result.spongeBytesWritten());
  }

  private static void awaitTrackerLists(int expected, Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    ClientIdentity self =
        new ClientIdentity(
            "",
            ProcessLiveness.currentPid(),
            ProcessLiveness.currentStartMillis(),
            ChunkOwner.taskHash("remote-reach"),
            "remote-reach");
    Configuration conf = new Configuration(false);
    SpongeOptions.AUTH_SECRET_FILE.set(conf, secret.toString());
    ClusterSecret clusterSecret = SpongeSettings.clusterSecret(ConfigValues.reading(conf));
    while (true) {
      try (RemoteConnection connection =
          RemoteConnection.open(
              ServerAddress.parse(tracker.endpoint()),
              self,
              clusterSecret,
              Duration.ofSeconds(5),
              Duration.ofSeconds(5))) {
        if (connection.freeList(RACK).servers.size() >= expected) {
          return;
        }
      } catch (IOException e) {
        // Not the leader yet (NOT_LEADER until its election), or not listening yet.
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the tracker never listed " + expected + " servers in " + RACK);
      }
      Thread.sleep(100);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
