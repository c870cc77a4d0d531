package org.spongefiles.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.TestDirs;

/**
 * Two sponge servers run from the distribution's bin/sponge-server and lib/ with one
 * sponge-site.xml, as an operator would.
 */
@Timeout(180)
class DaemonScriptsTest {
  private Path dist;
  private Path script;
  private Path home;
  private final List<Path> pools = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    dist = Distribution.home();
    script = dist.resolve("bin/sponge-server");
    home = Files.createTempDirectory("sponge-home");
    Files.createDirectories(home.resolve("conf"));
    Files.copy(dist.resolve("conf/log4j.properties"), home.resolve("conf/log4j.properties"));
    Files.copy(
        dist.resolve("conf/log4j-cli.properties"), home.resolve("conf/log4j-cli.properties"));
    Files.writeString(
        home.resolve("conf/sponge-site.xml"),
        "<configuration>"
            + property("sponge.pool.size", "2m")
            + property("sponge.chunk.size", "64k")
            + property("sponge.pool.permissions", "rw-------")
            + property("sponge.server.bind.host", "127.0.0.1")
            + property("sponge.server.metrics.port", "-1")
            + property("sponge.auth.none", "true")
            + "</configuration>");
  }

  @AfterEach
  void tearDown() throws Exception {
    run("stop", "--instance", "a");
    run("stop", "--instance", "b");
    run("stop");
    runScript(dist.resolve("bin/sponge-tracker"), "stop");
    TestDirs.deleteTree(home);
    pools.forEach(TestDirs::deleteTree);
  }

  private static String property(String name, String value) {
    return "<property><name>" + name + "</name><value>" + value + "</value></property>";
  }

  private ScriptRun run(String... args) throws Exception {
    return runScript(script, args);
  }

  private ScriptRun runScript(Path script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", script.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    // The daemons run from the distribution's lib/, with this test's conf, log and pid dirs.
    builder.environment().put("SPONGE_CONF_DIR", home.resolve("conf").toString());
    builder.environment().put("SPONGE_LOG_DIR", home.resolve("logs").toString());
    builder.environment().put("SPONGE_PID_DIR", home.resolve("run").toString());
    builder.environment().put("SPONGE_SERVER_OPTS", "-Xmx128m");
    builder
        .environment()
        .put("SPONGE_TRACKER_OPTS", "-Xmx128m -Dzookeeper.admin.enableServer=false");
    return ScriptRun.of(builder);
  }

  private String[] instance(String name, int port) {
    Path pool = TestDirs.newShmDir("script-" + name);
    pools.add(pool);
    return new String[] {
      "start",
      "--instance",
      name,
      "-Dsponge.server.port=" + port,
      "-Dsponge.server.address=127.0.0.1:" + port,
      "-Dsponge.node.id=node-" + name,
      "-Dsponge.pool.dir=" + pool
    };
  }

  @Test
  void twoServersFromOneConfigFileLendTheirMemoryAndStopCleanly() throws Exception {
    int portA = freePort();
    int portB = freePort();
    ScriptRun a = run(instance("a", portA));
    assertThat(a.exit).as(a.output).isZero();
    assertThat(a.output).contains("sponge-server-a started").contains("READY 127.0.0.1:" + portA);
    ScriptRun b = run(instance("b", portB));
    assertThat(b.exit).as(b.output).isZero();
    assertThat(run(instance("a", portA)).output).contains("already running");

    ScriptRun status = run("status", "--instance", "a");
    assertThat(status.exit).as(status.output).isZero();
    assertThat(status.output).contains("healthy: 127.0.0.1:" + portA).contains("32 of 32 chunks");
    assertThat(Files.exists(home.resolve("run/sponge-server-a.pid"))).isTrue();

    Path disk = TestDirs.newShmDir("script-disk");
    pools.add(disk);
    Configuration conf = new Configuration(false);
    conf.set("sponge.tiers", "remote,disk");
    // Placement is asserted below; overflow would send chunks to disk when the servers lag.
    conf.setBoolean("sponge.write.overflow", false);
    // One I/O thread fills the first server before the second; with more, chunks allocated at once
    // may stay reserved on the first when it fills, and the second takes a few more.
    conf.setInt("sponge.io.threads", 1);
    conf.set("sponge.chunk.size", "64k");
    conf.set("sponge.remote.servers", "127.0.0.1:" + portA + ",127.0.0.1:" + portB);
    conf.set("sponge.disk.dirs", disk.toString());
    conf.set("sponge.disk.reserve", "0");
    // The task's lease file goes beside its pool directory: the test's, not the machine's /dev/shm.
    conf.set("sponge.pool.dir", disk.toString());
    try (SpongeTask task = SpongeTask.open(conf, "attempt_scripts")) {
      SpongeFile file = task.create("across-two-servers");
      byte[] digest;
      try (OutputStream out = file.output()) {
        digest = RandomBytes.write(out, 9, 50L * 64 * 1024);
      }
      assertThat(file.chunks()).allMatch(c -> c.tier() == TierKind.REMOTE);
      assertThat(file.chunks().stream().filter(c -> c.location().contains(":" + portB)).count())
          .as("the first server holds 32 chunks, the second the rest")
          .isEqualTo(18);
      try (SpongeInputStream in = file.input()) {
        assertThat(RandomBytes.read(in, 1).sha256).isEqualTo(digest);
      }
    }

    Path poolA = pools.get(0);
    Path poolB = pools.get(1);
    String user = System.getProperty("user.name");
    assertThat(files(poolA)).contains("sponge-pool-" + user + ".meta");
    ScriptRun inUse = sponge("pool", "rm", "--pool-dir", poolB.toString());
    assertThat(inUse.exit).as(inUse.output).isEqualTo(2);
    assertThat(inUse.output)
        .contains(
            "sponge: pool sponge-pool-" + user + " in " + poolB + " is in use by live process")
        .contains(Files.readString(home.resolve("run/sponge-server-b.pid")).strip())
        .contains("Nothing removed.");

    ScriptRun stopA = run("stop", "--instance", "a");
    assertThat(stopA.exit).isZero();
    assertThat(stopA.output)
        .contains("sponge-server-a stopped")
        .contains("removed pool sponge-pool-" + user + " in " + poolA);
    assertThat(files(poolA)).as("stop removes the pool's files from tmpfs").isEmpty();
    assertThat(Files.exists(home.resolve("run/sponge-server-a.pid"))).isFalse();
    assertThat(Files.readString(home.resolve("logs/sponge-server-a.log")))
        .contains("Sponge server 127.0.0.1:" + portA + " stopped");
    assertThat(run("status", "--instance", "a").exit).isEqualTo(3);
    ScriptRun stopB = run("stop", "--instance", "b", "--keep-pool");
    assertThat(stopB.exit).isZero();
    assertThat(stopB.output).contains("sponge-server-b stopped").contains("kept its pool");
    List<String> kept = new ArrayList<>(files(poolB));
    // The node's lease directory is not the pool's: pool rm deletes it only once no lease is held.
    kept.remove("sponge-leases");
    assertThat(kept)
        .contains("sponge-pool-" + user + ".meta", "sponge-pool-" + user + ".meta.token-key");
    ScriptRun rm = sponge("pool", "rm", "--pool-dir", poolB.toString());
    assertThat(rm.exit).as(rm.output).isZero();
    assertThat(rm.output)
        .contains(
            "removed pool sponge-pool-" + user + " in " + poolB + " (" + kept.size() + " files");
    assertThat(files(poolB)).isEmpty();
    ScriptRun again =
        sponge("pool", "rm", "--pool-dir", poolB.toString(), "--name", "sponge-pool-" + user);
    assertThat(again.exit).isEqualTo(1);
    assertThat(again.output).contains("sponge: no pool sponge-pool-" + user + " in " + poolB);
  }

  @Test
  void aServerStartedFromTheSiteFileAloneStopsAndRemovesItsPool() throws Exception {
    // As operations.md installs it: every key in sponge-site.xml, no -D on the command line, so
    // stop finds the pool through the site file rather than the start's saved overrides.
    int port = freePort();
    Path pool = TestDirs.newShmDir("script-site");
    pools.add(pool);
    Path site = home.resolve("conf/sponge-site.xml");
    Files.writeString(
        site,
        Files.readString(site)
            .replace(
                "</configuration>",
                property("sponge.server.port", Integer.toString(port))
                    + property("sponge.server.address", "127.0.0.1:" + port)
                    + property("sponge.node.id", "node-site")
                    + property("sponge.pool.dir", pool.toString())
                    + "</configuration>"));
    ScriptRun started = run("start");
    assertThat(started.exit).as(started.output).isZero();
    assertThat(started.output).contains("READY 127.0.0.1:" + port);
    String user = System.getProperty("user.name");
    assertThat(files(pool)).contains("sponge-pool-" + user + ".meta");

    ScriptRun stopped = run("stop");
    assertThat(stopped.exit).as(stopped.output).isZero();
    assertThat(stopped.output)
        .contains("sponge-server-default stopped")
        .contains("removed pool sponge-pool-" + user + " in " + pool);
    assertThat(files(pool)).as("stop removes the pool's files from tmpfs").isEmpty();
    assertThat(home.resolve("run")).isEmptyDirectory();
  }

  @Test
  void theTrialZooKeeperStartsFromTheDistributionAndATrackerLeadsOnIt() throws Exception {
    Path zookeeper = dist.resolve("bin/sponge-zookeeper");
    Path data = home.resolve("zookeeper-data");
    int zkPort = freePort();
    String[] where = {"--port", Integer.toString(zkPort), "--data-dir", data.toString()};
    try {
      ScriptRun started = runScript(zookeeper, concat("start", where));
      assertThat(started.exit).as(started.output).isZero();
      assertThat(started.output).contains("sponge-zookeeper started").contains("on port " + zkPort);
      ScriptRun status = runScript(zookeeper, concat("status", where));
      assertThat(status.exit).as(status.output).isZero();
      assertThat(Files.readString(home.resolve("logs/sponge-zookeeper.log")))
          .doesNotContain("NoClassDefFoundError");

      Path tracker = dist.resolve("bin/sponge-tracker");
      int trackerPort = freePort();
      ScriptRun leader =
          runScript(
              tracker,
              "start",
              "-Dsponge.zookeeper.quorum=127.0.0.1:" + zkPort,
              "-Dsponge.tracker.bind.host=127.0.0.1",
              "-Dsponge.tracker.port=" + trackerPort,
              "-Dsponge.tracker.address=127.0.0.1:" + trackerPort,
              "-Dsponge.tracker.metrics.port=-1");
      assertThat(leader.exit).as(leader.output).isZero();
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(30))
          .until(() -> runScript(tracker, "status").output.contains("healthy: leader"));
      assertThat(runScript(tracker, "stop").exit).isZero();
    } finally {
      ScriptRun stopped = runScript(zookeeper, concat("stop", where));
      assertThat(stopped.output).contains("sponge-zookeeper stopped");
    }
    assertThat(runScript(zookeeper, concat("status", where)).exit).isEqualTo(3);
    assertThat(Files.exists(home.resolve("run/sponge-zookeeper.pid"))).isFalse();
  }

  private static String[] concat(String first, String... rest) {
    List<String> all = new ArrayList<>(List.of(first));
    all.addAll(List.of(rest));
    return all.toArray(new String[0]);
  }

  private ScriptRun sponge(String... args) throws Exception {
    return runScript(dist.resolve("bin/sponge"), args);
  }

  private static List<String> files(Path dir) throws IOException {
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      return entries
          .map(p -> p.getFileName().toString())
          .sorted()
          .collect(java.util.stream.Collectors.toList());
    }
  }

  @Test
  void aBadValueStopsTheStartWithTheKeyInTheOutput() throws Exception {
    ScriptRun bad = run("start", "--instance", "a", "-Dsponge.server.threads=lots");
    assertThat(bad.exit).isNotZero();
    assertThat(bad.output)
        .contains("failed to start")
        .contains("Invalid value lots for configuration sponge.server.threads");
    assertThat(Files.exists(home.resolve("run/sponge-server-a.pid"))).isFalse();
  }

  @Test
  void withoutASecretNorAuthNoneTheServerDoesNotStartAndSaysWhichKeys() throws Exception {
    ScriptRun refused = run("start", "--instance", "a", "-Dsponge.auth.none=false");
    assertThat(refused.exit).isEqualTo(1);
    assertThat(refused.output)
        .contains("sponge-server-a failed to start")
        .contains(
            "sponge-server: Invalid value (empty) for configuration sponge.auth.secret.file: the"
                + " sponge server needs the cluster secret")
        .contains("or set sponge.auth.none=true to serve without authentication")
        .doesNotContain("\tat ");
    assertThat(Files.exists(home.resolve("run/sponge-server-a.pid"))).isFalse();
  }

  @Test
  void aMalformedSiteFileIsOneLineNamingTheFileAndNoStackTrace() throws Exception {
    Path site = home.resolve("conf/sponge-site.xml");
    Files.writeString(site, "<configuration>\n<property><name>sponge.pool.size</name>\n");
    ScriptRun bad = run("start", "--instance", "a");
    assertThat(bad.exit).isEqualTo(1);
    assertThat(bad.output)
        .contains("sponge-server-a failed to start")
        .contains(
            "sponge-server: cannot read the configuration: "
                + site
                + " is not well-formed XML (line 3, column 1)")
        .doesNotContain("\tat ")
        .doesNotContain("ERROR")
        .doesNotContain("[Fatal Error]");
    List<String> log = Files.readAllLines(home.resolve("logs/sponge-server-a.log"));
    assertThat(log).hasSize(1);
    ScriptRun status = runScript(dist.resolve("bin/sponge"), "status");
    assertThat(status.exit).isEqualTo(3);
    assertThat(status.output.strip())
        .startsWith("sponge: " + site + " is not well-formed XML (line 3, column 1)")
        .doesNotContain("\n");
  }

  @Test
  void aTrackerFromTheScriptsLeadsAndListsTheServersOfItsRack() throws Exception {
    Path tracker = dist.resolve("bin/sponge-tracker");
    try (org.apache.curator.test.TestingServer zookeeper =
        new org.apache.curator.test.TestingServer()) {
      String quorum = "-Dsponge.zookeeper.quorum=" + zookeeper.getConnectString();
      int serverPort = freePort();
      List<String> server = new ArrayList<>(List.of(instance("a", serverPort)));
      server.add(quorum);
      server.add("-Dsponge.rack=/r7");
      assertThat(run(server.toArray(new String[0])).exit).isZero();
      int trackerPort = freePort();
      ScriptRun started =
          runScript(
              tracker,
              "start",
              quorum,
              "-Dsponge.tracker.bind.host=127.0.0.1",
              "-Dsponge.tracker.port=" + trackerPort,
              "-Dsponge.tracker.address=127.0.0.1:" + trackerPort,
              "-Dsponge.tracker.metrics.port=-1");
      assertThat(started.exit).as(started.output).isZero();
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(30))
          .until(
              () ->
                  runScript(tracker, "status", "-Dsponge.rack=/r7")
                      .output
                      .contains("127.0.0.1:" + serverPort));
      ScriptRun status = runScript(tracker, "status");
      assertThat(status.exit).isZero();
      assertThat(status.output).contains("healthy: leader").contains("rack /default-rack");
      assertThat(runScript(tracker, "stop").output).contains("sponge-tracker-default stopped");
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
