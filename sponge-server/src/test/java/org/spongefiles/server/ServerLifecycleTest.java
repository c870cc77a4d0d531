package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.daemon.DaemonArguments;
import org.spongefiles.testkit.TestDirs;

/** Metrics, health, bad configuration and graceful shutdown of the daemon. */
class ServerLifecycleTest {
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  private static RemoteConnection connect(SpongeServer server) throws IOException {
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        new ClientIdentity("", (int) ProcessHandle.current().pid(), 0, 1, "attempt_life"),
        null,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }

  @Test
  void metricsAndHealthAreServedOverHttp() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 16);
    ServerOptions.METRICS_PORT.set(conf, 0);
    SpongeServer server = fixture.start(conf);
    try (RemoteConnection client = connect(server)) {
      ChunkHandle chunk = client.allocate(1).get(0);
      client.write(chunk, 0, ByteBuffer.wrap(new byte[1000]));
      client.read(chunk, 0, ByteBuffer.allocate(500));
    }
    assertThat(Scrape.get(server.metricsPort(), "/-/healthy")).startsWith("200");
    String metrics = Scrape.get(server.metricsPort(), "/metrics");
    assertThat(Scrape.value(metrics, "sponge_server_requests_total{op=\"WRITE\"}")).isEqualTo(1);
    assertThat(Scrape.value(metrics, "sponge_server_written_bytes_total")).isEqualTo(1000);
    assertThat(Scrape.value(metrics, "sponge_server_read_bytes_total")).isEqualTo(500);
    assertThat(Scrape.value(metrics, "sponge_server_pool_chunks")).isEqualTo(16);
    assertThat(Scrape.value(metrics, "sponge_server_pool_free_chunks")).isEqualTo(15);
  }

  @Test
  void startTouchesTheWholePoolUnlessToldNot() throws Exception {
    Configuration touched = fixture.serverConf("node-a", 256);
    Configuration sparse = fixture.serverConf("node-b", 256);
    ServerOptions.POOL_TOUCH.set(sparse, false);

    fixture.start(touched);
    fixture.start(sparse);

    long size = 256L * ServerFixture.CHUNK;
    assertThat(TestDirs.allocatedBytes(Path.of(touched.get(SpongeOptions.POOL_DIR.key()))))
        .isGreaterThanOrEqualTo(size);
    assertThat(TestDirs.allocatedBytes(Path.of(sparse.get(SpongeOptions.POOL_DIR.key()))))
        .isLessThan(size / 2);
  }

  @Test
  void badConfigurationIsRefusedAtStartWithTheKey() {
    Configuration conf = fixture.serverConf("node-a", 16);
    conf.set(ServerOptions.RECLAIM_INTERVAL.key(), "often");
    assertThatThrownBy(() -> SpongeServer.start(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "Invalid value often for configuration sponge.server.reclaim.interval");
  }

  @Test
  void aPortInUseIsNamedWithItsKeys() throws Exception {
    SpongeServer first = fixture.start("node-a", 8);
    Configuration conf = fixture.serverConf("node-b", 8);
    SpongeOptions.SERVER_PORT.set(conf, first.address().getPort());
    assertThatThrownBy(() -> SpongeServer.start(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sponge.server.port")
        .hasMessageContaining("127.0.0.1:" + first.address().getPort());
  }

  @Test
  void closeStopsAcceptingClosesConnectionsAndReleasesThePool() throws Exception {
    SpongeServer server = fixture.start("node-a", 8);
    RemoteConnection idle = connect(server);
    assertThat(idle.allocate(2)).hasSize(2);
    server.close();
    assertThatThrownBy(() -> idle.stats()).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> connect(server)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> server.pool().freeChunks())
        .as("the pool handle is released")
        .isInstanceOf(IllegalStateException.class);
    server.close(); // idempotent
    idle.close();
  }

  @Test
  void theCommandLineTakesConfFilesAndOverrides() throws Exception {
    java.nio.file.Path site = java.nio.file.Files.createTempFile("sponge-site", ".xml");
    try {
      java.nio.file.Files.writeString(
          site,
          "<configuration><property><name>sponge.server.threads</name><value>3</value></property>"
              + "<property><name>sponge.pool.size</name><value>2m</value></property></configuration>");
      Configuration conf =
          DaemonArguments.parse(List.of("--conf", site.toString(), "-Dsponge.pool.size=4m"));
      assertThat(conf.get(ServerOptions.THREADS.key())).isEqualTo("3");
      assertThat(conf.get(SpongeOptions.POOL_SIZE.key())).isEqualTo("4m");
      assertThatThrownBy(() -> DaemonArguments.parse(List.of("--conf", "/nonexistent/site.xml")))
          .hasMessageContaining("cannot be read");
      assertThatThrownBy(() -> DaemonArguments.parse(List.of("--port")))
          .hasMessageContaining("unknown argument '--port'");
    } finally {
      java.nio.file.Files.deleteIfExists(site);
    }
  }
}
