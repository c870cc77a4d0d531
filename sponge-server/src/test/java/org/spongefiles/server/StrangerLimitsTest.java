package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.testkit.RandomBytes;

/**
 * Before authentication a peer gets almost nothing: 500 strangers holding partial frames or silence
 * cost the server little direct memory and do not stop a legitimate task; silent peers are
 * disconnected at the handshake deadline; connections over the caps are closed at once.
 */
class StrangerLimitsTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private final List<RawClient> strangers = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (RawClient stranger : strangers) {
      stranger.close();
    }
  }

  /** A stranger that read the challenge and sent the header and all but one byte of a frame. */
  private RawClient partialFrame(InetSocketAddress server, Opcode opcode, int declared)
      throws Exception {
    RawClient client = new RawClient(server);
    strangers.add(client);
    assertThat(client.receive().opcode).isEqualTo(Opcode.CHALLENGE);
    ByteBuffer frame = ByteBuffer.allocate(Frame.HEADER_SIZE + declared - 1);
    Frame.putHeader(frame, opcode, 0, 1, declared);
    client.sendRaw(frame.array());
    return client;
  }

  private RawClient silent(InetSocketAddress server) throws Exception {
    RawClient client = new RawClient(server);
    strangers.add(client);
    return client;
  }

  @Test
  void fiveHundredStrangersLeaveALegitimateTaskWorkingAndLittleDirectMemoryHeld() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 1100);
    ServerOptions.METRICS_PORT.set(conf, 0);
    ServerOptions.HANDSHAKE_TIMEOUT.set(conf, Duration.ofMinutes(2));
    ServerOptions.MAX_CONNECTIONS_PER_ADDRESS.set(conf, 1000);
    SpongeServer server = fixture.start(conf);
    InetSocketAddress address = server.address();
    List<RawClient> oversized = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      oversized.add(partialFrame(address, Opcode.WRITE, CHUNK + ChunkRange.WRITE_HEAD));
    }
    for (int i = 0; i < 200; i++) {
      partialFrame(address, Opcode.HELLO, Frame.MAX_UNAUTHENTICATED_PAYLOAD);
    }
    for (int i = 0; i < 200; i++) {
      silent(address);
    }
    for (RawClient client : oversized) {
      RawClient.Received refusal = client.receive();
      assertThat(refusal.opcode).isEqualTo(Opcode.ERROR);
      assertThat(refusal.error().code()).isEqualTo(ErrorCode.FRAME_TOO_LARGE);
      assertThat(client.closedByServer()).isTrue();
    }
    long size = 64L << 20;
    try (SpongeTask task =
        SpongeTask.open(fixture.clientConf("node-x", 0, server), "attempt_s_1")) {
      SpongeFile file = task.create("legit");
      byte[] digest;
      try (OutputStream out = file.output()) {
        digest = RandomBytes.write(out, 5, size);
      }
      assertThat(file.chunks()).allMatch(c -> c.tier() == TierKind.REMOTE);
      try (SpongeInputStream in = file.input()) {
        RandomBytes.Digest read = RandomBytes.read(in, 0);
        assertThat(read.bytes).isEqualTo(size);
        assertThat(read.sha256).isEqualTo(digest);
      }
      assertThat(server.connectionCount()).isGreaterThanOrEqualTo(400);
      long held = ServerMetrics.nettyDirectBytes();
      // 400 strangers at 4 KiB each, a task's chunk frames and the allocator's own granularity
      // (the test JVM's clients share the allocator).
      System.out.println("BENCH stranger-limits netty-direct-bytes=" + held);
      assertThat(held).isLessThan(48L << 20);
    }
    String metrics = Scrape.get(server.metricsPort(), "/metrics");
    assertThat(Scrape.value(metrics, "sponge_server_refused_peers_total{reason=\"bad_frame\"}"))
        .isEqualTo(100);
    assertThat(Scrape.value(metrics, "sponge_server_requests_total{op=\"WRITE\"}"))
        .as("only the task's writes")
        .isEqualTo(size / CHUNK);
  }

  @Test
  void silentPeersAreDisconnectedAtTheHandshakeDeadline() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    ServerOptions.METRICS_PORT.set(conf, 0);
    ServerOptions.HANDSHAKE_TIMEOUT.set(conf, Duration.ofMillis(300));
    SpongeServer server = fixture.start(conf);
    List<RawClient> quiet = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      quiet.add(silent(server.address()));
    }
    for (RawClient client : quiet) {
      assertThat(client.receive().opcode).isEqualTo(Opcode.CHALLENGE);
      assertThat(client.closedByServer()).isTrue();
    }
    String metrics = Scrape.get(server.metricsPort(), "/metrics");
    assertThat(
            Scrape.value(
                metrics, "sponge_server_refused_peers_total{reason=\"handshake_timeout\"}"))
        .isEqualTo(20);
  }

  @Test
  void connectionsOverTheCapsAreClosedAtOnceAndTheirPlacesComeBack() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    ServerOptions.MAX_CONNECTIONS_PER_ADDRESS.set(conf, 3);
    SpongeServer server = fixture.start(conf);
    List<RawClient> admitted = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      RawClient client = silent(server.address());
      assertThat(client.receive().opcode).isEqualTo(Opcode.CHALLENGE);
      admitted.add(client);
    }
    RawClient extra = silent(server.address());
    assertThat(extra.closedByServer()).as("no challenge, closed").isTrue();
    admitted.get(0).close();
    RawClient again = awaitAdmitted(server);
    assertThat(again.receive().opcode).isEqualTo(Opcode.CHALLENGE);

    Configuration total = fixture.serverConf("node-b", 4);
    ServerOptions.MAX_CONNECTIONS.set(total, 2);
    SpongeServer small = fixture.start(total);
    for (int i = 0; i < 2; i++) {
      assertThat(silent(small.address()).receive().opcode).isEqualTo(Opcode.CHALLENGE);
    }
    assertThat(silent(small.address()).closedByServer()).isTrue();
  }

  /** A new connection once the server has seen a closed one go (its close is asynchronous). */
  private RawClient awaitAdmitted(SpongeServer server) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (server.connectionCount() > 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return silent(server.address());
  }
}
