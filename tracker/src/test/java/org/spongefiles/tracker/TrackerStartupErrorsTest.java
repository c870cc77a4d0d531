package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.DaemonStarts;
import org.spongefiles.testkit.TestCertificates;

/** A carelessly configured tracker does not start and says why in one line naming the key. */
class TrackerStartupErrorsTest {

  private static List<String> args(Configuration conf) {
    return DaemonStarts.args(conf);
  }

  private static String refused(List<String> args) {
    return DaemonStarts.refused("sponge-tracker", TrackerMain::launch, args);
  }

  @Test
  void portsInUseAndAMalformedSiteFileAreOneLineEach() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString());
        ServerSocket taken = new ServerSocket(0)) {
      Configuration conf = cluster.trackerConf("t1", "1s");
      conf.setInt("sponge.tracker.port", taken.getLocalPort());
      assertThat(refused(args(conf)))
          .contains("sponge.tracker.port")
          .contains(Integer.toString(taken.getLocalPort()));

      Configuration metrics = cluster.trackerConf("t2", "1s");
      metrics.setInt("sponge.tracker.metrics.port", taken.getLocalPort());
      assertThat(refused(args(metrics)))
          .contains("sponge.tracker.metrics.port")
          .contains(Integer.toString(taken.getLocalPort()));
    }
    Path site = Files.createTempFile("sponge-site", ".xml");
    try {
      Files.writeString(site, "<configuration><property>");
      assertThat(refused(List.of("--conf", site.toString())))
          .contains("cannot read the configuration");
    } finally {
      Files.deleteIfExists(site);
    }
  }

  @Test
  void unusableTlsStoresAreOneLineNamingTheKeyAndTheFile(@TempDir Path dir) throws Exception {
    TestCertificates ca = TestCertificates.authority(dir, "cluster");
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      Configuration conf = ca.daemon(cluster.trackerConf("t1", "1s"), ca.keystore("t1"));
      conf.set("sponge.tls.truststore.file", dir.resolve("missing.p12").toString());
      assertThat(refused(args(conf)))
          .startsWith(
              "sponge-tracker: Invalid value "
                  + dir.resolve("missing.p12")
                  + " for configuration sponge.tls.truststore.file: cannot be read");

      Configuration noKeystore = ca.client(cluster.trackerConf("t2", "1s"));
      assertThat(refused(args(noKeystore)))
          .isEqualTo(
              "sponge-tracker: Invalid value (empty) for configuration sponge.tls.keystore.file:"
                  + " required when sponge.tls.enabled=true");
    }
  }

  @Test
  void withoutASecretTheTrackerRefusesToStartUnlessAuthenticationIsExplicitlyOff()
      throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      Configuration conf = cluster.trackerConf("t1", "1s");
      conf.unset("sponge.auth.none");
      assertThat(refused(args(conf)))
          .isEqualTo(
              "sponge-tracker: Invalid value (empty) for configuration sponge.auth.secret.file:"
                  + " the memory tracker needs the cluster secret: set it to a file of at least 16"
                  + " characters readable only by the daemons and task users, or set"
                  + " sponge.auth.none=true to serve without authentication");
      Path stderr = Files.createTempFile("tracker", ".err");
      try (ChildJvm child =
          ChildJvm.start(TrackerMain.class, stderr, args(conf).toArray(new String[0]))) {
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(Files.readAllLines(stderr))
            .filteredOn(line -> line.startsWith("sponge-tracker:"))
            .singleElement()
            .asString()
            .contains("sponge.auth.secret.file")
            .contains("sponge.auth.none=true");
        assertThat(Files.readAllLines(stderr)).noneMatch(line -> line.startsWith("\tat "));
      } finally {
        Files.deleteIfExists(stderr);
      }
    }
  }
}
