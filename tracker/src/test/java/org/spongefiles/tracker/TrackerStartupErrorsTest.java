package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** A carelessly configured tracker does not start and says why in one line naming the key. */
class TrackerStartupErrorsTest {

  private static List<String> args(Configuration conf) {
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> entry : conf) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    return args;
  }

  private static String refused(List<String> args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    MemoryTracker tracker =
        TrackerMain.launch(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    if (tracker != null) {
      tracker.close();
      throw new AssertionError("the tracker started with " + args);
    }
    String text = err.toString(StandardCharsets.UTF_8);
    assertThat(text.lines()).hasSize(1);
    assertThat(text).startsWith("sponge-tracker: ").doesNotContain("\tat ");
    return text.trim();
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
