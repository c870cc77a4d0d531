package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.config.NodeFinalKeys;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.pool.LeaseDirectory;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * A task whose own configuration names one pool, on a node whose mapred-site.xml names another
 * final (a Tez task's case): the pool, the lease directory and the node server's endpoint are the
 * node's, all from the one parse.
 */
class NodeFinalPoolTest {
  private Path nodePool;
  private Path jobPool;
  private Path diskDir;
  private Path confDir;

  @BeforeEach
  void setUp() throws IOException {
    nodePool = TestDirs.newShmDir("node-final-pool");
    jobPool = TestDirs.newShmDir("job-pool");
    diskDir = TestDirs.newShmDir("node-final-disk");
    confDir = Files.createTempDirectory("node-final-conf-");
    Files.writeString(
        confDir.resolve("mapred-site.xml"),
        "<?xml version=\"1.0\"?>\n<configuration>\n"
            + "  <property><name>sponge.pool.dir</name><value>"
            + nodePool
            + "</value><final>true</final></property>\n"
            + "  <property><name>sponge.pool.name</name><value>node-pool</value>"
            + "<final>true</final></property>\n"
            + "  <property><name>sponge.server.address</name><value>worker-3:7171</value>"
            + "<final>true</final></property>\n"
            + "</configuration>\n",
        StandardCharsets.UTF_8);
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(nodePool);
    TestDirs.deleteTree(jobPool);
    TestDirs.deleteTree(diskDir);
    TestDirs.deleteTree(confDir);
  }

  @Test
  void theTaskUsesTheNodesPoolLeaseDirectoryAndServer() throws IOException {
    Configuration conf = SpongeTestConf.of(jobPool, diskDir, 1 << 20, 64 << 10);
    conf.set(SpongeOptions.TIERS.key(), "pool,disk");
    conf.set(SpongeOptions.SERVER_ADDRESS.key(), "job-node:7071");

    ParsedConfig values = SpongeTaskSettings.parse(NodeFinalKeys.of(confDir), conf);
    byte[] data = RandomBytes.array(3, 200_000);
    try (SpongeTask task = SpongeTask.open(values, conf, "attempt_node_final_r_000000_0")) {
      SpongeFile file = task.create("spill");
      try (OutputStream out = file.output()) {
        out.write(data);
      }
      try (SpongeInputStream in = file.input()) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
      assertThat(task.tiers().pool().pool().metadataFile())
          .as("the pool")
          .startsWith(nodePool)
          .hasFileName("node-pool.meta");
      assertThat(task.stats().bytesWritten(TierKind.POOL)).isEqualTo(data.length);
      assertThat(task.identity().hasLease()).isTrue();
      assertThat(leases(nodePool)).as("leases beside the node's pool").isNotEmpty();
    }
    assertThat(SpongeSettings.nodeServerEndpoint(values, "ignored")).isEqualTo("worker-3:7171");
    try (Stream<Path> left = Files.list(jobPool)) {
      assertThat(left).as("the job's pool directory").isEmpty();
    }
  }

  private static String[] leases(Path poolDir) throws IOException {
    try (Stream<Path> files = Files.list(LeaseDirectory.beside(poolDir).path())) {
      return files.map(p -> p.getFileName().toString()).toArray(String[]::new);
    }
  }
}
