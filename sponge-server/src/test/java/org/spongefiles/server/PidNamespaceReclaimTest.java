package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.pool.OwnerEntry;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.PidNamespace;

/**
 * A task in a pid namespace of its own (pid 1 there, as YARN's Docker runtime starts it) on node b,
 * with the default tiers: its chunks in node b's pool and on node a's server live as long as it
 * does, well past the reclaim period (500 ms here), and every byte reads back; after SIGKILL both
 * servers free them within two sweeps. Skipped, saying why, without root or unshare.
 */
@Timeout(180)
class PidNamespaceReclaimTest {
  private static final int POOL_CHUNKS = 6;
  private static final int CHUNKS = 16;

  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Path stderr;

  @BeforeAll
  static void needsNamespaces() {
    PidNamespace.assumeAvailable();
  }

  @BeforeEach
  void setUp() throws Exception {
    stderr = fixture.tempFile("pidns-task", ".err");
  }

  @Test
  void aNamespacedTasksChunksLiveWithItAndAreFreedAfterSigkill() throws Exception {
    SpongeServer lender = fixture.start("node-a", 64);
    SpongeServer own = fixture.start("node-b", POOL_CHUNKS);
    Configuration conf = fixture.clientConf("node-b", POOL_CHUNKS, lender);
    conf.unset(SpongeOptions.TIERS.key()); // the default list: pool, remote, disk, dfs
    SpongeOptions.SERVER_ADDRESS.set(conf, own.endpoint());
    // The node's pool itself, as a task running as the server's user uses it.
    SpongeOptions.POOL_DIR.set(conf, own.pool().metadataFile().getParent().toString());
    SpongeOptions.POOL_NAME.set(conf, "pool");
    SpongeOptions.POOL_CREATE.set(conf, false);
    List<String> args = new ArrayList<>(List.of("attempt_pidns", Integer.toString(CHUNKS)));
    for (Map.Entry<String, String> entry : conf) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    try (ChildJvm task =
        ChildJvm.startWrapped(
            PidNamespace.WRAPPER,
            NamespacedTaskChild.class,
            stderr,
            List.of(),
            args.toArray(new String[0]))) {
      assertThat(task.awaitLine("PID", 60, TimeUnit.SECONDS)).isEqualTo("PID 1");
      String[] written = task.awaitLine("WRITTEN", 90, TimeUnit.SECONDS).split(" ");
      int inPool = Integer.parseInt(written[1]);
      int remote = Integer.parseInt(written[2]);
      long lease = Long.parseUnsignedLong(written[4], 16);
      assertThat(inPool).as("the pool took what it had").isEqualTo(POOL_CHUNKS);
      assertThat(remote).as("node a took the rest").isEqualTo(CHUNKS - POOL_CHUNKS);
      assertThat(held(own, lease)).isEqualTo(POOL_CHUNKS);
      long lent = held(lender, lease); // the chunks written, and any it allocated ahead
      assertThat(lent).isGreaterThanOrEqualTo(remote);
      assertThat(lender.pool().owners()).allMatch(e -> !e.owner().isLocal());

      Thread.sleep(3_000); // six reclaim periods of both servers
      assertThat(held(own, lease)).as("node b's pool, after 3 s").isEqualTo(POOL_CHUNKS);
      assertThat(held(lender, lease)).as("node a's server, after 3 s").isEqualTo(lent);
      task.sendLine("VERIFY");
      assertThat(task.awaitLine("VERIFIED", 60, TimeUnit.SECONDS)).isEqualTo("VERIFIED true");

      task.kill();
      Awaitility.await()
          .atMost(Duration.ofMillis(2 * 500 + 1500))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> held(own, lease) == 0 && held(lender, lease) == 0);
      assertThat(own.pool().freeChunks()).isEqualTo(POOL_CHUNKS);
      assertThat(lender.pool().freeChunks()).isEqualTo(64);
      assertThat(own.pool().leases().path().resolve(String.format("%016x.lease", lease)))
          .as("the dead lease's file is swept")
          .doesNotExist();
    }
  }

  private static long held(SpongeServer server, long lease) {
    return server.pool().owners().stream()
        .map(OwnerEntry::owner)
        .filter(owner -> owner.lease() == lease)
        .count();
  }
}
