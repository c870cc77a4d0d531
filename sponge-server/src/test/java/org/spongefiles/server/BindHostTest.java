package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeOptions;

/**
 * Every listener of a server honours sponge.server.bind.host, the metrics endpoint included: bound
 * to 127.0.0.2 (a loopback address Linux answers besides 127.0.0.1), neither port answers on
 * 127.0.0.1.
 */
class BindHostTest {
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  @Test
  void theWirePortAndTheMetricsPortListenOnTheBindHostOnly() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    ServerOptions.BIND_HOST.set(conf, "127.0.0.2");
    SpongeOptions.SERVER_ADDRESS.set(
        conf, "127.0.0.2:" + conf.get(SpongeOptions.SERVER_PORT.key()));
    ServerOptions.METRICS_PORT.set(conf, 0);
    SpongeServer server = fixture.start(conf);

    assertThat(server.address().getAddress().getHostAddress()).isEqualTo("127.0.0.2");
    assertThat(connects("127.0.0.2", server.address().getPort())).isTrue();
    assertThat(connects("127.0.0.2", server.metricsPort())).isTrue();
    assertThat(connects("127.0.0.1", server.address().getPort())).isFalse();
    assertThat(connects("127.0.0.1", server.metricsPort())).isFalse();
    assertThatThrownBy(() -> Scrape.get(server.metricsPort(), "/-/healthy"))
        .isInstanceOf(ConnectException.class);
  }

  private static boolean connects(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2000);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
