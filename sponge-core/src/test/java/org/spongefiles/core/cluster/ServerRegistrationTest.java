package org.spongefiles.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.remote.ServerAddress;

class ServerRegistrationTest {
  @Test
  void aRegistrationSurvivesItsZooKeeperDataWithTheMetricsPort() {
    ServerRegistration decoded =
        ServerRegistration.decode(
            new ServerRegistration(ServerAddress.parse("node7:7071"), "/r2", 512, 1 << 20, 7072)
                .encode());
    assertThat(decoded.address()).isEqualTo(ServerAddress.parse("node7:7071"));
    assertThat(decoded.rack()).isEqualTo("/r2");
    assertThat(decoded.chunks()).isEqualTo(512);
    assertThat(decoded.chunkSize()).isEqualTo(1 << 20);
    assertThat(decoded.metricsPort()).isEqualTo(7072);
  }

  @Test
  void dataWithoutAMetricsPortIsAServerThatPublishesNone() {
    ServerRegistration decoded =
        ServerRegistration.decode(
            "address=node7:7071\nrack=/r2\nchunks=4\nchunkSize=65536\n"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(decoded.metricsPort()).isEqualTo(-1);
    assertThatThrownBy(
            () ->
                ServerRegistration.decode("address=node7:7071\n".getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("no rack");
  }
}
