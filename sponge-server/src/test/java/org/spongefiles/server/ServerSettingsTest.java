package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.RackResolver;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.testkit.CountingConfiguration;

/** The server reads its configuration once, into typed settings, and checks its cross-key rules. */
class ServerSettingsTest {
  private final ServerFixture fixture = new ServerFixture();

  @TempDir Path dir;

  @AfterEach
  void tearDown() {
    fixture.close();
  }

  @Test
  void everyKeyIsReadOnceAndTyped() {
    Configuration base = fixture.serverConf("node-a", 4);
    base.set(ServerOptions.QUOTA_PER_TASK.key(), "2m");
    ServerOptions.IDLE_TIMEOUT.set(base, Duration.ofMinutes(3));
    CountingConfiguration conf = new CountingConfiguration(base);

    ServerSettings settings = ServerSettings.of(conf);

    assertThat(conf.readMoreThanOnce()).isEmpty();
    assertThat(conf.reads(SpongeOptions.CHUNK_SIZE.key())).isEqualTo(1);
    assertThat(settings.quotaPerTask).isEqualTo(2L << 20);
    assertThat(settings.idleTimeoutMillis).isEqualTo(Duration.ofMinutes(3).toMillis());
    assertThat(settings.reclaimIntervalMillis).isEqualTo(500);
    assertThat(settings.shutdownTimeout).isEqualTo(Duration.ofSeconds(2));
    assertThat(settings.threads).isEqualTo(2);
    assertThat(settings.endpoint).isEqualTo("127.0.0.1:" + settings.port);
    assertThat(settings.bindHost).isEqualTo("127.0.0.1");
    assertThat(settings.metricsPort).isEqualTo(-1);
    assertThat(settings.secret).isNull();
    assertThat(settings.zookeeper.configured()).isFalse();
  }

  @Test
  void aChunkSizeThatIsNotWholeChecksumBlocksNamesBothKeys() {
    Configuration conf = fixture.serverConf("node-a", 4);
    conf.set(SpongeOptions.CHUNK_SIZE.key(), "100k");
    conf.set(SpongeOptions.CHECKSUM_BLOCK_SIZE.key(), "64k");

    assertThatThrownBy(() -> ServerSettings.of(conf))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value 64k for configuration sponge.checksum.block.size: must divide the"
                + " chunk size 100k (sponge.chunk.size)");
  }

  @Test
  void theRackComesFromTheTopologyOfThisHostLikeItsTasksNotFromTheNodeId() throws Exception {
    Path script = dir.resolve("topology.sh");
    Files.writeString(script, "#!/bin/sh\nfor h; do echo /rack-of-$h; done\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Configuration conf = fixture.serverConf("node-a", 4);
    conf.unset(ClusterOptions.RACK.key());
    conf.set("net.topology.script.file.name", script.toString());
    Configuration task = new Configuration(false);
    task.set("net.topology.script.file.name", script.toString());

    ServerSettings settings = ServerSettings.of(conf);

    assertThat(settings.rack.known()).isTrue();
    assertThat(settings.rack.name())
        .isEqualTo(
            RackResolver.resolve(
                    ConfigCheck.validate(task, new ClusterOptions()), task, RackResolver.thisHost())
                .name())
        .doesNotContain("node-a");
  }

  @Test
  void aServerWithoutRackOrTopologyIsInTheDefaultRackAndKnowsWhy() {
    Configuration conf = fixture.serverConf("node-a", 4);
    conf.unset(ClusterOptions.RACK.key());

    ServerSettings settings = ServerSettings.of(conf);

    assertThat(settings.rack.known()).isFalse();
    assertThat(settings.rack.name()).isEqualTo("/default-rack");
    assertThat(settings.rack.origin()).contains("sponge.rack and net.topology.script.file.name");
  }
}
