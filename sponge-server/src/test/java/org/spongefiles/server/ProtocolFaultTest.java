package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;

/**
 * Malformed, oversized and out-of-order frames get a typed ERROR and close their connection, while
 * a well-behaved client on another connection keeps being served.
 */
class ProtocolFaultTest {
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private SpongeServer server;
  private RemoteConnection bystander;

  @BeforeEach
  void setUp() throws Exception {
    server = fixture.start("node-a", 16);
    bystander = connect("attempt_bystander");
  }

  @AfterEach
  void tearDown() {
    bystander.close();
  }

  private RemoteConnection connect(String task) throws Exception {
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        new ClientIdentity("", 999, 0, 5, task),
        null,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }

  private RawClient helloed() throws Exception {
    RawClient raw = new RawClient(server.address());
    raw.receive();
    Hello hello = new Hello("", 999, 0, 6, "attempt_raw", new byte[0], new byte[32], new byte[0]);
    ByteBuffer body = hello.encode();
    byte[] bytes = new byte[body.remaining()];
    body.get(bytes);
    raw.send(Opcode.HELLO, 0, 1, bytes);
    assertThat(raw.receive().opcode).isEqualTo(Opcode.HELLO_OK);
    return raw;
  }

  /** Sends {@code bytes} on a fresh connection; expects an ERROR with {@code code} and a close. */
  private void expectClosedWith(byte[] bytes, ErrorCode code, String reason) throws Exception {
    try (RawClient raw = helloed()) {
      raw.sendRaw(bytes);
      RawClient.Received reply = raw.receive();
      assertThat(reply.opcode).isEqualTo(Opcode.ERROR);
      WireException error = reply.error();
      assertThat(error.code()).isEqualTo(code);
      assertThat(error.reason()).contains(reason);
      assertThat(raw.closedByServer()).as("connection closed after %s", code).isTrue();
    }
    // Everyone else is still served.
    ChunkHandle chunk = bystander.allocate(1).get(0);
    assertThat(bystander.free(java.util.List.of(chunk))).isEqualTo(1);
  }

  private static byte[] header(int magic, int version, int opcode, int flags, int length) {
    ByteBuffer header = ByteBuffer.allocate(Frame.HEADER_SIZE);
    header.putInt(magic).put((byte) version).put((byte) opcode).putShort((short) flags);
    header.putLong(3).putInt(length);
    return header.array();
  }

  @Test
  void badMagic() throws Exception {
    expectClosedWith(
        header(0x12345678, 1, 18, 0, 0), ErrorCode.MALFORMED_FRAME, "bad magic 0x12345678");
  }

  @Test
  void unsupportedVersionIsRefusedWithBothVersions() throws Exception {
    expectClosedWith(
        header(Frame.MAGIC, 9, 18, 0, 0),
        ErrorCode.UNSUPPORTED_VERSION,
        "protocol version 9 is not supported (this side speaks 3)");
  }

  @Test
  void thePidNamingVersion2IsRefused() throws Exception {
    expectClosedWith(
        header(Frame.MAGIC, 2, 18, 0, 0),
        ErrorCode.UNSUPPORTED_VERSION,
        "protocol version 2 is not supported (this side speaks 3)");
  }

  @Test
  void unknownOpcode() throws Exception {
    expectClosedWith(
        header(Frame.MAGIC, Frame.VERSION, 99, 0, 0),
        ErrorCode.MALFORMED_FRAME,
        "unknown opcode 99");
  }

  @Test
  void oversizedFrameIsRefusedBeforeItsPayloadArrives() throws Exception {
    expectClosedWith(
        header(Frame.MAGIC, Frame.VERSION, 12, 0, 512 << 20),
        ErrorCode.FRAME_TOO_LARGE,
        "payload of 536870912 bytes (expected: 0 to "
            + (ServerFixture.CHUNK + Frame.MAX_CONTROL_PAYLOAD)
            + ")");
  }

  @Test
  void aResponseSentByAClientIsOutOfOrder() throws Exception {
    expectClosedWith(
        header(Frame.MAGIC, Frame.VERSION, 15, 1, 0),
        ErrorCode.OUT_OF_ORDER,
        "a client sent a response frame");
  }

  @Test
  void aSecondHelloIsOutOfOrder() throws Exception {
    Hello hello = new Hello("", 999, 0, 6, "again", new byte[0], new byte[32], new byte[0]);
    ByteBuffer body = hello.encode();
    ByteBuffer frame = ByteBuffer.allocate(Frame.HEADER_SIZE + body.remaining());
    Frame.putHeader(frame, Opcode.HELLO, 0, 7, body.remaining());
    frame.put(body);
    expectClosedWith(
        frame.array(), ErrorCode.OUT_OF_ORDER, "HELLO is not a request (or a second HELLO)");
  }

  @Test
  void aTruncatedBodyIsMalformed() throws Exception {
    byte[] frame = new byte[Frame.HEADER_SIZE + 3];
    System.arraycopy(header(Frame.MAGIC, Frame.VERSION, 14, 0, 3), 0, frame, 0, Frame.HEADER_SIZE);
    expectClosedWith(frame, ErrorCode.MALFORMED_FRAME, "body ends before");
  }

  @Test
  void refusalsKeepTheConnection() throws Exception {
    try (RemoteConnection client = connect("attempt_refused")) {
      WireException notOwned = null;
      try {
        client.read(new ChunkHandle(3, 1), 0, ByteBuffer.allocate(10));
      } catch (WireException e) {
        notOwned = e;
      }
      assertThat(notOwned).isNotNull();
      assertThat(notOwned.code()).isEqualTo(ErrorCode.NO_SUCH_CHUNK);
      assertThat(client.isBroken()).isFalse();
      assertThat(client.allocate(16)).hasSize(16);
      WireException full = null;
      try {
        client.allocate(1);
      } catch (WireException e) {
        full = e;
      }
      assertThat(full.code()).isEqualTo(ErrorCode.POOL_FULL);
      assertThat(client.stats().freeChunks).isZero();
    }
  }

  @Test
  void aFreeListAskedOfAServerWithoutATrackerIsNotLeaderAndKeepsTheConnection() throws Exception {
    try (RemoteConnection task = connect("attempt_free_list")) {
      WireException refused = null;
      try {
        task.freeList("/default-rack");
      } catch (WireException e) {
        refused = e;
      }
      assertThat(refused).isNotNull();
      assertThat(refused.code()).isEqualTo(ErrorCode.NOT_LEADER);
      assertThat(refused.reason()).as("no leader known without ZooKeeper").isEmpty();
      assertThat(task.isBroken()).isFalse();
      assertThat(task.stats().freeChunks).isEqualTo(16);
    }
  }

  @Test
  void aTruncatedFreeListIsMalformed() throws Exception {
    byte[] frame = new byte[Frame.HEADER_SIZE + 2];
    System.arraycopy(
        header(Frame.MAGIC, Frame.VERSION, Opcode.FREE_LIST.code(), 0, 2),
        0,
        frame,
        0,
        Frame.HEADER_SIZE);
    frame[Frame.HEADER_SIZE + 1] = 9; // a string of 9 bytes, none of which follow
    expectClosedWith(frame, ErrorCode.MALFORMED_FRAME, "body ends before");
  }

  @Test
  void aReportToAServerThatCarriesNoneIsRefusedAndAMalformedOneClosed() throws Exception {
    // A rack peer's report to its relay; this server follows no tracker, so it carries none.
    ByteBuffer body = new FreeReport("node-x:7071", 1024, 8, 8).encode();
    byte[] bytes = new byte[body.remaining()];
    body.get(bytes);
    try (RawClient raw = helloed()) {
      raw.send(Opcode.REPORT, 0, 4, bytes);
      RawClient.Received reply = raw.receive();
      assertThat(reply.opcode).isEqualTo(Opcode.ERROR);
      assertThat(reply.error().code()).isEqualTo(ErrorCode.NOT_LEADER);
      assertThat(reply.error().reason()).contains("follows no tracker");
    }
    byte[] lying = new byte[Frame.HEADER_SIZE + bytes.length];
    System.arraycopy(
        header(Frame.MAGIC, Frame.VERSION, Opcode.REPORT.code(), 0, bytes.length),
        0,
        lying,
        0,
        Frame.HEADER_SIZE);
    ByteBuffer.wrap(new FreeReport("node-x:7071", 1024, 8, 9).encode().array())
        .get(lying, Frame.HEADER_SIZE, bytes.length);
    expectClosedWith(lying, ErrorCode.MALFORMED_FRAME, "chunks 8, freeChunks 9");
  }
}
