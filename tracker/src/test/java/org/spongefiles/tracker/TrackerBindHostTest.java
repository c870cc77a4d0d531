package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Every listener of a tracker honours sponge.tracker.bind.host, the metrics endpoint included:
 * bound to 127.0.0.2 (a loopback address Linux answers besides 127.0.0.1), neither port answers on
 * 127.0.0.1.
 */
class TrackerBindHostTest {

  @Test
  void theTrackerPortAndTheMetricsPortListenOnTheBindHostOnly() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      Configuration conf = cluster.trackerConf("t1", "1s");
      int port = conf.getInt("sponge.tracker.port", -1);
      conf.set("sponge.tracker.bind.host", "127.0.0.2");
      conf.set("sponge.tracker.address", "127.0.0.2:" + port);
      conf.setInt("sponge.tracker.metrics.port", 0);
      try (MemoryTracker tracker = MemoryTracker.start(conf)) {
        assertThat(tracker.address().getAddress().getHostAddress()).isEqualTo("127.0.0.2");
        assertThat(connects("127.0.0.2", port)).isTrue();
        assertThat(connects("127.0.0.2", tracker.metricsPort())).isTrue();
        assertThat(connects("127.0.0.1", port)).isFalse();
        assertThat(connects("127.0.0.1", tracker.metricsPort())).isFalse();
      }
    }
  }

  private static boolean connects(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
