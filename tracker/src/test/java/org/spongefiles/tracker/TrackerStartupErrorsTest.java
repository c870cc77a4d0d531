package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.spongefiles.daemon.testing.DaemonStarts;

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
}
