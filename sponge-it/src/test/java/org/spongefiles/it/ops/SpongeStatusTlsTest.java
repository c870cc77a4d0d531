package org.spongefiles.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.server.report.RackStatus;
import org.spongefiles.server.report.SpongeStatus;
import org.spongefiles.testkit.TestCertificates;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.tracker.MemoryTracker;

/**
 * {@code bin/sponge status} against a rack with TLS on: with the truststore keys it reads every
 * server over TLS; without them it reports the servers unreachable, naming the key.
 */
@Timeout(120)
class SpongeStatusTlsTest {
  private TestingServer zookeeper;
  private final List<Path> dirs = new ArrayList<>();
  private TestCertificates ca;
  private SpongeServer server;
  private MemoryTracker tracker;

  @BeforeEach
  void startRack() throws Exception {
    zookeeper = new TestingServer();
    Path certificates = Files.createTempDirectory("status-tls");
    dirs.add(certificates);
    ca = TestCertificates.authority(certificates, "cluster");
    Path pool = TestDirs.newShmDir("status-tls-pool");
    dirs.add(pool);
    Configuration serverConf = base("node-a");
    int port = freePort();
    serverConf.set("sponge.server.bind.host", "127.0.0.1");
    serverConf.setInt("sponge.server.port", port);
    serverConf.set("sponge.server.address", "127.0.0.1:" + port);
    serverConf.setInt("sponge.server.metrics.port", 0);
    serverConf.set("sponge.pool.dir", pool.toString());
    serverConf.set("sponge.pool.size", "1m");
    serverConf.set("sponge.server.handshake.timeout", "1s");
    server = SpongeServer.start(ca.daemon(serverConf, ca.keystore("node-a")));
    Configuration trackerConf = base("tracker");
    int trackerPort = freePort();
    trackerConf.set("sponge.tracker.bind.host", "127.0.0.1");
    trackerConf.setInt("sponge.tracker.port", trackerPort);
    trackerConf.set("sponge.tracker.address", "127.0.0.1:" + trackerPort);
    trackerConf.setInt("sponge.tracker.metrics.port", -1);
    tracker = MemoryTracker.start(ca.daemon(trackerConf, ca.keystore("tracker")));
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(tracker::isLeader);
  }

  @AfterEach
  void stopRack() throws IOException {
    if (tracker != null) {
      tracker.close();
    }
    if (server != null) {
      server.close();
    }
    zookeeper.close();
    dirs.forEach(TestDirs::deleteTree);
  }

  private Configuration base(String node) {
    Configuration conf = new Configuration(false);
    conf.set("sponge.zookeeper.quorum", zookeeper.getConnectString());
    conf.set("sponge.rack", "/rack-1");
    conf.set("sponge.node.id", node);
    conf.set("sponge.chunk.size", "64k");
    conf.set("sponge.pool.permissions", "rw-------");
    conf.setBoolean("sponge.auth.none", true);
    return conf;
  }

  private String[] status(Configuration tls) {
    List<String> args = new ArrayList<>(List.of("status"));
    args.add("-Dsponge.zookeeper.quorum=" + zookeeper.getConnectString());
    for (Map.Entry<String, String> entry : tls) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SpongeStatus.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new String[] {
      Integer.toString(code),
      out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)
    };
  }

  @Test
  void statusReadsTlsServersWithTheTruststoreAndNamesTheKeyWithoutIt() throws Exception {
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> status(ca.client(new Configuration(false)))[1].contains(server.endpoint()));
    String[] secure = status(ca.client(new Configuration(false)));
    assertThat(Integer.parseInt(secure[0])).as(secure[2]).isEqualTo(RackStatus.OK);
    assertThat(secure[1])
        .contains("Tracker leader: " + tracker.endpoint())
        .contains(server.endpoint())
        .doesNotContain("UNREACHABLE");

    String[] plain = status(new Configuration(false));
    assertThat(Integer.parseInt(plain[0])).isEqualTo(RackStatus.SERVER_UNREACHABLE);
    assertThat(plain[1])
        .contains(server.endpoint())
        .contains("UNREACHABLE")
        .contains("sponge.tls.enabled");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
