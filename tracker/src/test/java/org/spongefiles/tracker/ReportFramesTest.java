package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.cluster.ServerRegistry;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.FreeReports;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;

/**
 * REPORT and RACK_RELAY on a real leader, byte by byte: a registered server's report comes back to
 * it in its rack's list, sent to it as the rack's relay with the leader's name and a sequence; a
 * malformed report closes the connection with MALFORMED_FRAME; a follower refuses reports and
 * batches with NOT_LEADER naming the leader; a relay's batch counts only for its own rack's servers
 * that report on a connection of their own.
 */
@Timeout(60)
class ReportFramesTest {

  @Test
  void reportsArePushedBackMalformedOnesCloseAndFollowersPointToTheLeader() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      MemoryTracker leader = cluster.tracker("tracker-1", "100ms");
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(leader::isLeader);
      MemoryTracker follower = cluster.tracker("tracker-2", "100ms");
      ZooKeeperSettings zk =
          ZooKeeperSettings.from(ConfigCheck.validate(cluster.base(), new ClusterOptions()));
      CuratorFramework client = cluster.add(ZooKeeperClients.start(zk));
      cluster.add(
          ServerRegistry.register(
              client,
              zk.layout(),
              new ServerRegistration(ServerAddress.parse("fake-1:7071"), "/r9", 8, 1024)));

      try (Raw server = Raw.helloed(leader)) {
        server.send(Opcode.REPORT, new FreeReport("fake-1:7071", 1024, 8, 5).encode());
        FreeList pushed = null;
        long sequence = Long.MIN_VALUE;
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (pushed == null || pushed.servers.isEmpty()) {
          assertThat(System.nanoTime()).as("a RACK_RELAY within 5 s").isLessThan(deadline);
          ByteBuffer frame = server.receive();
          assertThat(frame.get(5)).isEqualTo(Opcode.RACK_RELAY.code());
          frame.position(Frame.HEADER_SIZE);
          RelayedList relayed = RelayedList.decode(frame, "tracker");
          assertThat(relayed.leader).isEqualTo(leader.endpoint());
          assertThat(relayed.sequence).isGreaterThan(sequence);
          sequence = relayed.sequence;
          pushed = relayed.list;
          if (!pushed.servers.isEmpty()) {
            assertThat(relayed.relays).containsExactly("fake-1:7071");
          }
        }
        assertThat(pushed.rack).isEqualTo("/r9");
        assertThat(pushed.servers)
            .extracting(e -> e.endpoint + " " + e.freeChunks + "/" + e.chunks)
            .containsExactly("fake-1:7071 5/8");
      }
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .ignoreExceptionsInstanceOf(WireException.class)
          .until(() -> TrackerClient.freeList(leader.endpoint(), "/r9").servers.isEmpty());

      try (Raw server = Raw.helloed(leader)) {
        server.send(Opcode.REPORT, new FreeReport("fake-1:7071", 1024, 8, 9).encode());
        WireException error = server.error();
        assertThat(error.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
        assertThat(error.reason()).contains("fake-1:7071").contains("freeChunks 9");
        assertThat(server.closedByPeer()).isTrue();
      }

      try (Raw server = Raw.helloed(follower)) {
        server.send(Opcode.REPORT, new FreeReport("fake-1:7071", 1024, 8, 5).encode());
        WireException error = server.error();
        assertThat(error.code()).isEqualTo(ErrorCode.NOT_LEADER);
        assertThat(error.reason()).isEqualTo(leader.endpoint());
      }
      try (Raw server = Raw.helloed(follower)) {
        server.send(Opcode.REPORTS, new FreeReports(List.of()).encode());
        WireException error = server.error();
        assertThat(error.code()).isEqualTo(ErrorCode.NOT_LEADER);
        assertThat(error.reason()).isEqualTo(leader.endpoint());
      }
    }
  }

  @Test
  void aRelaysBatchCountsOnlyForItsRacksServersThatReportThemselves() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      MemoryTracker leader = cluster.tracker("tracker-1", "100ms");
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(leader::isLeader);
      ZooKeeperSettings zk =
          ZooKeeperSettings.from(ConfigCheck.validate(cluster.base(), new ClusterOptions()));
      CuratorFramework client = cluster.add(ZooKeeperClients.start(zk));
      for (String[] server :
          new String[][] {
            {"relay:1", "/r9"}, {"peer:1", "/r9"}, {"quiet:1", "/r9"}, {"far:1", "/r8"}
          }) {
        cluster.add(
            ServerRegistry.register(
                client,
                zk.layout(),
                new ServerRegistration(ServerAddress.parse(server[0]), server[1], 8, 1024)));
      }
      try (Raw relay = Raw.helloed(leader);
          Raw peer = Raw.helloed(leader);
          Raw far = Raw.helloed(leader);
          Raw stranger = Raw.helloed(leader)) {
        relay.send(Opcode.REPORT, new FreeReport("relay:1", 1024, 8, 8).encode());
        peer.send(Opcode.REPORT, new FreeReport("peer:1", 1024, 8, 8).encode());
        far.send(Opcode.REPORT, new FreeReport("far:1", 1024, 8, 8).encode());
        // A batch on a connection that sent no report of its own counts for nobody.
        stranger.send(
            Opcode.REPORTS,
            new FreeReports(List.of(new FreeReport("peer:1", 1024, 8, 1))).encode());
        Thread.sleep(300);
        // Counted: the relay's own and its rack peer's. Dropped: another rack's server, and one
        // that never reported on a connection of its own.
        relay.send(
            Opcode.REPORTS,
            new FreeReports(
                    List.of(
                        new FreeReport("relay:1", 1024, 8, 6),
                        new FreeReport("peer:1", 1024, 8, 3),
                        new FreeReport("far:1", 1024, 8, 0),
                        new FreeReport("quiet:1", 1024, 8, 2)))
                .encode());
        Awaitility.await()
            .atMost(Duration.ofSeconds(5))
            .ignoreExceptionsInstanceOf(WireException.class)
            .untilAsserted(
                () ->
                    assertThat(TrackerClient.freeList(leader.endpoint(), "/r9").servers)
                        .extracting(e -> e.endpoint + " " + e.freeChunks)
                        .containsExactlyInAnyOrder("relay:1 6", "peer:1 3"));
        assertThat(TrackerClient.freeList(leader.endpoint(), "/r8").servers)
            .extracting(e -> e.endpoint + " " + e.freeChunks)
            .containsExactly("far:1 8");
        assertThat(relay.receive().get(5))
            .as("the relay's connection still gets its rack's lists after its batch")
            .isEqualTo(Opcode.RACK_RELAY.code());

        relay.send(Opcode.REPORTS, ByteBuffer.wrap(new byte[] {0, 0, 0, 1}));
        WireException error = relay.error();
        assertThat(error.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
        assertThat(error.reason()).contains("report count 1");
        assertThat(relay.closedByPeer()).isTrue();
      }
    }
  }

  /** A plain socket speaking frames, authenticated without a secret. */
  private static final class Raw implements Closeable {
    private final Socket socket;
    private final DataInputStream in;

    private Raw(Socket socket) throws IOException {
      this.socket = socket;
      this.in = new DataInputStream(socket.getInputStream());
    }

    static Raw helloed(MemoryTracker tracker) throws IOException {
      Socket socket = new Socket("127.0.0.1", tracker.address().getPort());
      socket.setSoTimeout(5000);
      Raw raw = new Raw(socket);
      assertThat(raw.receive().get(5)).isEqualTo(Opcode.CHALLENGE.code());
      raw.send(
          Opcode.HELLO,
          new Hello("", 999, 0, 6, "sponge-server@fake", new byte[0], new byte[32], new byte[0])
              .encode());
      assertThat(raw.receive().get(5)).isEqualTo(Opcode.HELLO_OK.code());
      return raw;
    }

    void send(Opcode opcode, ByteBuffer body) throws IOException {
      ByteBuffer frame = ByteBuffer.allocate(Frame.HEADER_SIZE + body.remaining());
      Frame.putHeader(frame, opcode, 0, 1, body.remaining());
      frame.put(body);
      socket.getOutputStream().write(frame.array());
    }

    ByteBuffer receive() throws IOException {
      byte[] header = new byte[Frame.HEADER_SIZE];
      in.readFully(header);
      byte[] payload = new byte[ByteBuffer.wrap(header).getInt(16)];
      in.readFully(payload);
      return ByteBuffer.allocate(header.length + payload.length).put(header).put(payload).flip();
    }

    /** The next ERROR, skipping pushes that crossed it. */
    WireException error() throws IOException {
      while (true) {
        ByteBuffer frame = receive();
        if (frame.get(5) == Opcode.ERROR.code()) {
          frame.position(Frame.HEADER_SIZE);
          return ErrorBody.decode(frame, "tracker");
        }
      }
    }

    boolean closedByPeer() throws IOException {
      return in.read() == -1;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
