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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.SpongeTestConf;

/**
 * A task process killed with SIGKILL while holding remote chunks: the server frees them within two
 * sweep periods (500 ms here), asking the task's own node server (which checks the task's lease
 * file beside its pool) when the task is remote; chunks of live tasks are untouched.
 */
@Timeout(120)
class OrphanReclaimTest {
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Path stderr;

  @BeforeEach
  void setUp() throws Exception {
    stderr = fixture.tempFile("orphan", ".err");
  }

  private ChildJvm startClient(String task, int chunks, Configuration conf) throws Exception {
    List<String> args = new ArrayList<>(List.of(task, Integer.toString(chunks)));
    for (Map.Entry<String, String> entry : conf) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    ChildJvm child = ChildJvm.start(ClientChild.class, stderr, args.toArray(new String[0]));
    assertThat(child.awaitLine("WRITTEN", 60, TimeUnit.SECONDS)).isEqualTo("WRITTEN " + chunks);
    return child;
  }

  private void assertReclaimedWithinTwoSweeps(SpongeServer server, int expectedFree) {
    Awaitility.await()
        .atMost(Duration.ofMillis(2 * 500 + 700))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> server.pool().freeChunks() == expectedFree);
  }

  @Test
  void aKilledTaskOnAnotherNodeIsAskedAboutAndReclaimed() throws Exception {
    SpongeServer lender = fixture.start("node-a", 64);
    SpongeServer clientsNode = fixture.start("node-b", 8);
    Configuration conf = fixture.clientConf("node-b", 0, lender);
    SpongeOptions.SERVER_ADDRESS.set(conf, clientsNode.endpoint());
    // Tasks take their leases beside their node's pool, where its server checks them.
    SpongeOptions.POOL_DIR.set(conf, clientsNode.pool().metadataFile().getParent().toString());
    try (SpongeTask live = SpongeTask.open(conf, "attempt_live")) {
      org.spongefiles.core.SpongeFile kept = live.create("kept");
      try (java.io.OutputStream out = kept.output()) {
        out.write(new byte[3 * ServerFixture.CHUNK]);
      }
      int freeBefore = lender.pool().freeChunks();
      ChildJvm child = startClient("attempt_doomed", 10, conf);
      assertThat(lender.pool().freeChunks()).isLessThanOrEqualTo(freeBefore - 10);
      child.kill();
      assertReclaimedWithinTwoSweeps(lender, freeBefore);
      assertThat(lender.pool().owners()).hasSize(64 - freeBefore);
      try (org.spongefiles.core.SpongeInputStream in = kept.input()) {
        assertThat(in.readAllBytes()).hasSize(3 * ServerFixture.CHUNK);
      }
    }
  }

  @Test
  void aKilledTaskOfTheServersOwnNodeIsReclaimedByItsLease() throws Exception {
    SpongeServer server = fixture.start("node-a", 32);
    Configuration conf = fixture.clientConf("node-a", 0, server);
    SpongeOptions.SERVER_ADDRESS.set(conf, server.endpoint());
    SpongeOptions.POOL_DIR.set(conf, server.pool().metadataFile().getParent().toString());
    ChildJvm child = startClient("attempt_local_doomed", 12, conf);
    assertThat(server.pool().owners()).allMatch(e -> e.owner().isLocal());
    child.kill();
    assertReclaimedWithinTwoSweeps(server, 32);
  }

  @Test
  void ownersOfAnUnreachableNodeAreReclaimedOnlyAfterTheGracePeriod() throws Exception {
    Configuration serverConf = fixture.serverConf("node-a", 32);
    ServerOptions.RECLAIM_GRACE.set(serverConf, Duration.ofSeconds(3));
    SpongeServer server = fixture.start(serverConf);
    Configuration conf = fixture.clientConf("node-c", 0, server);
    SpongeOptions.SERVER_ADDRESS.set(
        conf, "127.0.0.1:" + SpongeTestConf.freePort()); // nobody there
    try (ChildJvm child = startClient("attempt_unreachable", 6, conf)) {
      Thread.sleep(1500);
      assertThat(server.pool().freeChunks()).as("within the grace period").isLessThanOrEqualTo(26);
      Awaitility.await()
          .atMost(Duration.ofSeconds(6))
          .until(() -> server.pool().freeChunks() == 32);
    }
  }
}
