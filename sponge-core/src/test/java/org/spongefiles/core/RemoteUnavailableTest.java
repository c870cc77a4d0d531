package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.RackResolver;
import org.spongefiles.core.remote.RemoteUnavailable;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.CapturedLog;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * A task whose configuration cannot reach remote memory says so once, in one WARN line naming the
 * key and value, and counts the reason; its chunks go to the tiers that are left.
 */
class RemoteUnavailableTest {
  private static final int CHUNK = 64 << 10;
  @TempDir Path dir;
  private Path pool;
  private Path disk;
  private final CapturedLog warnings = new CapturedLog(Level.WARN);

  @BeforeEach
  void setUp() {
    pool = TestDirs.newShmDir("unavailable-pool");
    disk = TestDirs.newShmDir("unavailable-disk");
    Logger.getLogger(RemoteUnavailable.class).addAppender(warnings);
  }

  @AfterEach
  void tearDown() {
    Logger.getLogger(RemoteUnavailable.class).removeAppender(warnings);
    TestDirs.deleteTree(pool);
    TestDirs.deleteTree(disk);
  }

  private Configuration conf() {
    Configuration conf = SpongeTestConf.of(pool, disk, 2L * CHUNK, CHUNK);
    conf.set(SpongeOptions.TIERS.key(), "pool,remote,disk");
    SpongeOptions.WRITE_OVERFLOW.set(conf, false);
    return conf;
  }

  /** Writes {@code chunks} chunks to one file and reads them back. */
  private static SpongeTask spill(SpongeTask task, int chunks) throws Exception {
    SpongeFile file = task.create("spill");
    byte[] data = RandomBytes.array(7, chunks * CHUNK);
    try (OutputStream out = file.output()) {
      out.write(data);
    }
    try (SpongeInputStream in = file.input()) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
    return task;
  }

  @Test
  void noTrackerNorServersIsSaidOnceAndCounted() throws Exception {
    Map<String, Long> counters;
    try (SpongeTask task = SpongeTask.open(conf(), "attempt_1_0001_r_000000_0")) {
      spill(task, 6);
      counters = task.stats().asCounters();
      assertThat(task.stats().bytesWritten(TierKind.POOL)).isEqualTo(2L * CHUNK);
      assertThat(task.stats().bytesWritten(TierKind.DISK)).isEqualTo(4L * CHUNK);
      assertThat(task.stats().bytesWritten(TierKind.REMOTE)).isZero();
    }
    assertThat(warnings.messages)
        .containsExactly(
            "No remote memory for attempt_1_0001_r_000000_0 (NO_SERVERS_CONFIGURED):"
                + " sponge.tracker.addresses and sponge.remote.servers are empty (leave remote out"
                + " of sponge.tiers to use no remote memory); its chunks go to the pool, then the"
                + " disk tiers instead (counter SpongeFiles REMOTE_UNAVAILABLE_NO_SERVERS_CONFIGURED)");
    assertThat(counters)
        .containsEntry("REMOTE_UNAVAILABLE", 1L)
        .containsEntry("REMOTE_UNAVAILABLE_NO_SERVERS_CONFIGURED", 1L);
  }

  @Test
  void withoutRemoteInTheTiersNothingIsSaid() throws Exception {
    Configuration conf = conf();
    conf.set(SpongeOptions.TIERS.key(), "pool,disk");
    try (SpongeTask task = SpongeTask.open(conf, "attempt_1_0001_r_000001_0")) {
      spill(task, 3);
      assertThat(task.stats().asCounters()).containsEntry("REMOTE_UNAVAILABLE", 0L);
    }
    assertThat(warnings.messages).isEmpty();
  }

  /**
   * No tracker answers and no ZooKeeper is configured: said once, whatever the number of spills and
   * refreshes; the rack came from the topology script of the host name, not from sponge.node.id.
   */
  @Test
  void aTrackerThatDoesNotAnswerWithoutFallbackIsSaidOnceAndTheRackIsTheHostsTopology()
      throws Exception {
    Path script = dir.resolve("topology.sh");
    Files.writeString(script, "#!/bin/sh\nfor h; do echo /rack-of-$h; done\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    int dead;
    try (ServerSocket socket = new ServerSocket(0)) {
      dead = socket.getLocalPort();
    }
    Configuration conf = conf();
    SpongeOptions.NODE_ID.set(conf, "node-a");
    conf.set("net.topology.script.file.name", script.toString());
    conf.set(ClusterOptions.TRACKER_ADDRESSES.key(), "127.0.0.1:" + dead);
    ClusterOptions.TRACKER_REFRESH.set(conf, Duration.ofMillis(10));
    SpongeOptions.REMOTE_CONNECT_TIMEOUT.set(conf, Duration.ofMillis(200));
    Map<String, Long> counters;
    try (SpongeTask task = SpongeTask.open(conf, "attempt_1_0001_r_000002_0")) {
      for (int i = 0; i < 5; i++) {
        spill(task, 3);
        Thread.sleep(20); // each round's list is stale: the tracker is asked again
      }
      // Hadoop hands the script the host's address, as it does for HDFS and YARN.
      assertThat(task.tiers().tier(TierKind.REMOTE).toString())
          .contains("rack /rack-of-" + NetUtils.normalizeHostName(RackResolver.thisHost()))
          .doesNotContain("node-a");
      counters = task.stats().asCounters();
    }
    assertThat(warnings.messages).hasSize(1);
    assertThat(warnings.messages.get(0))
        .startsWith(
            "No remote memory for attempt_1_0001_r_000002_0 (NO_TRACKER_ANSWER): no memory"
                + " tracker answered (sponge.tracker.addresses=127.0.0.1:"
                + dead)
        .contains("sponge.zookeeper.quorum is empty, so there is no fallback")
        .endsWith(
            "its chunks go to the pool, then the disk tiers instead (counter SpongeFiles"
                + " REMOTE_UNAVAILABLE_NO_TRACKER_ANSWER)");
    assertThat(counters)
        .containsEntry("REMOTE_UNAVAILABLE", 1L)
        .containsEntry("REMOTE_UNAVAILABLE_NO_TRACKER_ANSWER", 1L)
        .containsEntry("REMOTE_BYTES_WRITTEN", 0L);
  }
}
