package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
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
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;

/**
 * REPORT and RACK_RELAY on a real leader, byte by byte: a registered server's report comes back to
 * it in its rack's list, sent to it as the rack's relay with the leader's name and a sequence; a
 * malformed report closes the connection with MALFORMED_FRAME; a follower refuses reports with
 * NOT_LEADER naming the leader.
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
