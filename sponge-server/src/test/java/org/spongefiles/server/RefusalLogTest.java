package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Opcode;

/**
 * Bad frames from unauthenticated peers are summed up in one line per interval, counted as refused
 * peers, and not counted as requests; every counter is present from the start at zero.
 */
class RefusalLogTest {
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  @Test
  void countersArePresentAtZeroFromTheStart() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    ServerOptions.METRICS_PORT.set(conf, 0);
    SpongeServer server = fixture.start(conf);
    String metrics = Scrape.get(server.metricsPort(), "/metrics");
    for (ErrorCode code : ErrorCode.values()) {
      assertThat(Scrape.value(metrics, "sponge_server_errors_total{code=\"" + code + "\"}"))
          .isZero();
    }
    for (Opcode op : ServerMetrics.REQUESTS) {
      assertThat(Scrape.value(metrics, "sponge_server_requests_total{op=\"" + op + "\"}")).isZero();
    }
    for (String reason : RefusalLog.REASONS) {
      assertThat(
              Scrape.value(metrics, "sponge_server_refused_peers_total{reason=\"" + reason + "\"}"))
          .isZero();
    }
    assertThat(Scrape.value(metrics, "sponge_server_reclaimed_chunks_total{owner=\"local\"}"))
        .isZero();
    assertThat(Scrape.value(metrics, "sponge_server_reclaimed_chunks_total{owner=\"remote\"}"))
        .isZero();
    assertThat(Scrape.value(metrics, "sponge_server_auth_failures_total")).isZero();
    assertThat(Scrape.value(metrics, "sponge_server_netty_direct_bytes")).isNotNegative();
  }

  @Test
  void manyBadFramesBeforeHelloMakeOneSummaryLineAndNoRequests() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    ServerOptions.METRICS_PORT.set(conf, 0);
    conf.set(ServerOptions.REFUSAL_LOG_INTERVAL.key(), "1d");
    SpongeServer server = fixture.start(conf);
    for (int i = 0; i < 300; i++) {
      try (RawClient stranger = new RawClient(server.address())) {
        assertThat(stranger.receive().opcode).isEqualTo(Opcode.CHALLENGE);
        stranger.send(Opcode.WRITE, 0, 1, new byte[100]);
        assertThat(stranger.receive().error().code()).isEqualTo(ErrorCode.NOT_AUTHENTICATED);
        assertThat(stranger.closedByServer()).isTrue();
      }
    }
    String line = server.refusals().flush();
    assertThat(line)
        .startsWith("Refused 300 unauthenticated peer(s) {bad_frame=300} from 1 address(es)")
        .contains("127.0.0.1 x300")
        .contains("WRITE before HELLO");
    assertThat(server.refusals().flush()).as("nothing new, no line").isNull();
    String metrics = Scrape.get(server.metricsPort(), "/metrics");
    assertThat(Scrape.value(metrics, "sponge_server_refused_peers_total{reason=\"bad_frame\"}"))
        .isEqualTo(300);
    assertThat(Scrape.value(metrics, "sponge_server_requests_total{op=\"WRITE\"}")).isZero();
    assertThat(Scrape.value(metrics, "sponge_server_errors_total{code=\"NOT_AUTHENTICATED\"}"))
        .isEqualTo(300);
  }
}
