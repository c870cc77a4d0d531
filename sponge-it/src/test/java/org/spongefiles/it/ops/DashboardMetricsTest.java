package org.spongefiles.it.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.it.Distribution;
import org.spongefiles.server.ServerOptions;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.server.report.MetricsScrape;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.tracker.MemoryTracker;
import org.spongefiles.tracker.TrackerOptions;

/**
 * Every series the shipped Grafana dashboard (conf/sponge-grafana-dashboard.json) queries is
 * exported by a running sponge server or memory tracker, with the label values it selects, once the
 * server has written, read and refused a chunk.
 */
@Timeout(120)
class DashboardMetricsTest {
  private static final Pattern SERIES =
      Pattern.compile("(sponge_[a-z_]+)(\\{([a-z_]+)=\"([A-Z_]+)\"\\})?");

  @Test
  void everySeriesOfTheDashboardIsExported() throws Exception {
    Map<String, String> series = dashboardSeries();
    assertThat(series.keySet())
        .as("the issue's panels")
        .contains(
            "sponge_tracker_free_bytes",
            "sponge_server_pool_free_chunks",
            "sponge_server_requests_total{op=\"WRITE\"}",
            "sponge_server_requests_total{op=\"READ\"}",
            "sponge_server_reclaimed_chunks_total",
            "sponge_server_errors_total{code=\"QUOTA_EXCEEDED\"}",
            "sponge_tracker_tick_seconds",
            "sponge_server_tracker_linked");

    Path pool = TestDirs.newShmDir("dashboard-pool");
    try (TestingServer zookeeper = new TestingServer()) {
      Configuration serverConf =
          SpongeTestConf.loopbackServer(
              inZooKeeper(zookeeper, new Configuration(false)), "node-a", pool, 1L << 20);
      ClusterOptions.RACK.set(serverConf, "/rack-1");
      ServerOptions.METRICS_PORT.set(serverConf, 0);
      SpongeOptions.CHUNK_SIZE.set(serverConf, 64L << 10);
      SpongeOptions.POOL_PERMISSIONS.set(serverConf, "rw-------");
      ServerOptions.QUOTA_PER_TASK.set(serverConf, 128L << 10);
      Configuration trackerConf =
          SpongeTestConf.loopbackTracker(
              inZooKeeper(zookeeper, new Configuration(false)), "tracker", "200ms");
      TrackerOptions.METRICS_PORT.set(trackerConf, 0);
      try (SpongeServer server = SpongeServer.start(serverConf);
          MemoryTracker tracker = MemoryTracker.start(trackerConf)) {
        exercise(server);
        Awaitility.await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    !scrape(tracker.metricsPort()).samples("sponge_tracker_free_bytes").isEmpty());
        List<MetricsScrape.Sample> exported = new ArrayList<>();
        exported.addAll(scrape(server.metricsPort()).samples());
        exported.addAll(scrape(tracker.metricsPort()).samples());
        for (Map.Entry<String, String> wanted : series.entrySet()) {
          assertThat(exported)
              .as("%s, which the dashboard queries", wanted.getKey())
              .anyMatch(sample -> matches(sample, wanted.getKey(), wanted.getValue()));
        }
      }
    } finally {
      TestDirs.deleteTree(pool);
    }
  }

  /** Writes and reads a chunk and has the server refuse one past the task's quota. */
  private static void exercise(SpongeServer server) throws IOException {
    ClientIdentity task =
        new ClientIdentity(
            "127.0.0.1:1",
            ProcessLiveness.currentPid(),
            ProcessLiveness.currentStartMillis(),
            ChunkOwner.taskHash("attempt_dashboard"),
            "attempt_dashboard");
    try (RemoteConnection connection =
        RemoteConnection.open(
            ServerAddress.parse(server.endpoint()),
            task,
            null,
            Duration.ofSeconds(5),
            Duration.ofSeconds(5))) {
      List<ChunkHandle> chunks = connection.allocate(2);
      connection.write(chunks.get(0), 0, ByteBuffer.wrap(new byte[4096]));
      ByteBuffer back = ByteBuffer.allocate(4096);
      connection.read(chunks.get(0), 0, back);
      assertThat(back.position()).isEqualTo(4096);
      assertThatThrownBy(() -> connection.allocate(1))
          .isInstanceOfSatisfying(
              WireException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUOTA_EXCEEDED));
      connection.free(chunks);
    }
  }

  /** The series the dashboard's queries name: "name" or "name{label="VALUE"}", with the label. */
  private static Map<String, String> dashboardSeries() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(dashboardFile().toFile());
    Map<String, String> series = new LinkedHashMap<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.get("targets")) {
        Matcher m = SERIES.matcher(target.get("expr").asText());
        while (m.find()) {
          String key = m.group(2) == null ? m.group(1) : m.group(1) + m.group(2);
          series.put(key, m.group(2) == null ? "" : m.group(3) + "=" + m.group(4));
        }
      }
    }
    return series;
  }

  private static boolean matches(MetricsScrape.Sample sample, String key, String label) {
    String name = key.contains("{") ? key.substring(0, key.indexOf('{')) : key;
    if (!sample.name.equals(name)) {
      return false;
    }
    if (label.isEmpty()) {
      return true;
    }
    String[] kv = label.split("=", 2);
    return kv[1].equals(sample.labels.get(kv[0]));
  }

  private static MetricsScrape scrape(int port) throws IOException {
    return MetricsScrape.fetch("127.0.0.1", port, Duration.ofSeconds(5));
  }

  private static Configuration inZooKeeper(TestingServer zookeeper, Configuration conf) {
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, zookeeper.getConnectString());
    return conf;
  }

  /** The dashboard as the distribution ships it, in conf/. */
  private static Path dashboardFile() throws Exception {
    return Distribution.home().resolve("conf/sponge-grafana-dashboard.json");
  }
}
