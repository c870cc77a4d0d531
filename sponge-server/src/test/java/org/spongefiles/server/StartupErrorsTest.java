package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.daemon.DaemonOptions;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.DaemonStarts;
import org.spongefiles.testkit.TestDirs;

/**
 * A carelessly configured server does not start, and says why in one line naming the key and the
 * value: no stack trace, exit status 2.
 */
class StartupErrorsTest {
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private final List<Path> dirs = new ArrayList<>();

  @AfterEach
  void tearDown() {
    dirs.forEach(TestDirs::deleteTree);
  }

  private static List<String> args(Configuration conf) {
    return DaemonStarts.args(conf);
  }

  private static String refused(List<String> args) {
    return DaemonStarts.refused("sponge-server", ServerMain::launch, args);
  }

  @Test
  void aPortInUseNamesTheKeyAndExitsWithStatusTwo() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    Path stderr = fixture.tempFile("startup", ".err");
    try (ServerSocket taken = new ServerSocket(0)) {
      SpongeOptions.SERVER_PORT.set(conf, taken.getLocalPort());
      assertThat(refused(args(conf)))
          .contains("sponge.server.port")
          .contains(Integer.toString(taken.getLocalPort()));
      try (ChildJvm child =
          ChildJvm.start(ServerMain.class, stderr, args(conf).toArray(new String[0]))) {
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isEqualTo(2);
      }
      List<String> lines = Files.readAllLines(stderr);
      assertThat(lines).noneMatch(line -> line.startsWith("\tat ") || line.contains("Exception"));
      assertThat(lines).filteredOn(line -> line.startsWith("sponge-server:")).hasSize(1);
    }
  }

  @Test
  void aMetricsPortInUseNamesItsKey() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    try (ServerSocket taken = new ServerSocket(0)) {
      ServerOptions.METRICS_PORT.set(conf, taken.getLocalPort());
      assertThat(refused(args(conf)))
          .contains("sponge.server.metrics.port")
          .contains(Integer.toString(taken.getLocalPort()));
    }
  }

  @Test
  void aMissingPoolDirectoryOrAFileInItsPlaceNamesTheKey() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    Path base = TestDirs.newShmDir("startup");
    dirs.add(base);
    SpongeOptions.POOL_DIR.set(conf, base.resolve("missing").toString());
    assertThat(refused(args(conf))).contains("sponge.pool.dir").contains("does not exist");
    Path file = Files.createFile(base.resolve("a-file"));
    SpongeOptions.POOL_DIR.set(conf, file.toString());
    assertThat(refused(args(conf))).contains("sponge.pool.dir").contains("is not a directory");
  }

  @Test
  void anUnwritablePoolDirectoryNamesTheKeyAndTheUser() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    Path dir = Files.createTempDirectory("startup-unwritable");
    dirs.add(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
    boolean immutable = false;
    if (Files.isWritable(dir)) {
      // Root writes through permission bits; an immutable directory refuses even root.
      immutable = new ProcessBuilder("chattr", "+i", dir.toString()).start().waitFor() == 0;
    }
    try {
      assertThat(Files.isWritable(dir))
          .as("neither mode r-x------ nor chattr +i made %s unwritable for this user", dir)
          .isFalse();
      SpongeOptions.POOL_DIR.set(conf, dir.toString());
      assertThat(refused(args(conf)))
          .contains("sponge.pool.dir")
          .contains("is not writable by user " + System.getProperty("user.name"));
    } finally {
      if (immutable) {
        new ProcessBuilder("chattr", "-i", dir.toString()).start().waitFor();
      }
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void aChunkSizeTasksRefuseIsRefusedAtStart() {
    Configuration conf = fixture.serverConf("node-a", 4);
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "100k");
    assertThat(refused(args(conf)))
        .contains("sponge.chunk.size")
        .contains("100")
        .contains("sponge.checksum.block.size");
  }

  @Test
  void aMalformedSiteFileIsOneLine() throws Exception {
    Path site = fixture.tempFile("sponge-site", ".xml");
    Files.writeString(site, "<configuration><property><name>sponge.pool.size</name>");
    assertThat(refused(List.of("--conf", site.toString())))
        .isEqualTo(
            "sponge-server: cannot read the configuration: "
                + site
                + " is not well-formed XML (line 1, column 55): XML document structures must"
                + " start and end within the same entity.");
  }

  static final String NO_SECRET =
      "Invalid value (empty) for configuration sponge.auth.secret.file: the sponge server needs"
          + " the cluster secret: set it to a file of at least 16 characters readable only by the"
          + " daemons and task users, or set sponge.auth.none=true to serve without"
          + " authentication";

  @Test
  void withoutASecretTheServerRefusesToStartUnlessAuthenticationIsExplicitlyOff() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    conf.unset(DaemonOptions.AUTH_NONE.key());
    assertThat(refused(args(conf))).isEqualTo("sponge-server: " + NO_SECRET);
    Path stderr = fixture.tempFile("startup", ".err");
    try (ChildJvm child =
        ChildJvm.start(ServerMain.class, stderr, args(conf).toArray(new String[0]))) {
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isEqualTo(2);
      assertThat(Files.readAllLines(stderr)).containsExactly("sponge-server: " + NO_SECRET);
    }

    DaemonOptions.AUTH_NONE.set(conf, false);
    assertThat(refused(args(conf))).isEqualTo("sponge-server: " + NO_SECRET);
    conf.set(DaemonOptions.AUTH_NONE.key(), "maybe");
    assertThat(refused(args(conf))).contains("sponge.auth.none").contains("maybe");

    DaemonOptions.AUTH_NONE.set(conf, true);
    try (SpongeServer open = SpongeServer.start(conf)) {
      assertThat(open.pool().chunkCount()).isEqualTo(4);
    }
    conf.unset(DaemonOptions.AUTH_NONE.key());
    Path secret = fixture.tempFile("secret", "");
    Files.writeString(secret, "0123456789abcdef0123");
    SpongeOptions.AUTH_SECRET_FILE.set(conf, secret.toString());
    try (SpongeServer authenticated = SpongeServer.start(conf)) {
      assertThat(authenticated.pool().chunkCount()).isEqualTo(4);
    }
  }
}
