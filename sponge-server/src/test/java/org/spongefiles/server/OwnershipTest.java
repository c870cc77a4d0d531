package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.testkit.RandomBytes;

/**
 * Ownership is proven, not claimed: a second client that holds the cluster secret and copies a
 * task's whole identity gets a session of its own and cannot read, write or free the task's chunks;
 * a forged ticket is refused; a fresh attempt id does not get a fresh quota beyond the node's; an
 * old client is told its protocol version is not spoken.
 */
class OwnershipTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final ClientIdentity VICTIM =
      new ClientIdentity("127.0.0.1:1", 4242, 1_700_000_000_000L, 77, "attempt_victim_0");
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  private static RemoteConnection open(SpongeServer server, ClientIdentity who, byte[] ticket)
      throws Exception {
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        who,
        null,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        ticket);
  }

  private static ErrorCode code(ThrowingCall call) {
    try {
      call.run();
    } catch (WireException e) {
      return e.code();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return null;
  }

  private interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void aCopiedIdentityCannotReadWriteOrFreeTheVictimsChunks() throws Exception {
    SpongeServer server = fixture.start("node-a", 16);
    byte[] data = RandomBytes.array(3, CHUNK);
    try (RemoteConnection victim = open(server, VICTIM, new byte[0])) {
      List<ChunkHandle> chunks = victim.allocate(2);
      victim.write(chunks.get(0), 0, ByteBuffer.wrap(data));
      byte[] ticket = victim.ticket();
      assertThat(ticket).hasSize(SessionKeys.TICKET_BYTES);

      try (RemoteConnection thief = open(server, VICTIM, new byte[0])) {
        assertThat(thief.ticket()).as("a session of its own").isNotEqualTo(ticket);
        ChunkHandle target = chunks.get(0);
        assertThat(code(() -> thief.read(target, 0, ByteBuffer.allocate(100))))
            .isEqualTo(ErrorCode.NO_SUCH_CHUNK);
        assertThat(code(() -> thief.write(target, 0, ByteBuffer.wrap(new byte[100]))))
            .isEqualTo(ErrorCode.NO_SUCH_CHUNK);
        assertThat(thief.free(chunks)).as("freed nothing").isZero();
      }
      byte[] forged = ticket.clone();
      forged[forged.length - 1] ^= 1;
      assertThatThrownBy(() -> open(server, VICTIM, forged))
          .isInstanceOfSatisfying(
              WireException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.AUTH_FAILED));
      ClientIdentity otherProcess =
          new ClientIdentity("127.0.0.1:1", 4243, 1_700_000_000_000L, 77, "attempt_victim_0");
      assertThatThrownBy(() -> open(server, otherProcess, ticket))
          .as("a ticket is valid only for the process it was issued to")
          .isInstanceOfSatisfying(
              WireException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.AUTH_FAILED));

      try (RemoteConnection second = open(server, VICTIM, ticket)) {
        ByteBuffer back = ByteBuffer.allocate(CHUNK);
        second.read(chunks.get(0), 0, back);
        assertThat(back.array()).as("untouched, and readable in its own session").isEqualTo(data);
      }
      assertThat(victim.free(chunks)).isEqualTo(2);
    }
    assertThat(server.pool().freeChunks()).isEqualTo(16);
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(SessionKeys.keyFile(server.pool().metadataFile()))))
        .isEqualTo("rw-------");
  }

  @Test
  void aFreshAttemptIdDoesNotGetAFreshQuotaBeyondTheNodes() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 32);
    ServerOptions.QUOTA_PER_TASK.set(conf, 3L * CHUNK);
    ServerOptions.QUOTA_PER_NODE.set(conf, 4L * CHUNK);
    SpongeServer server = fixture.start(conf);
    try (RemoteConnection first = open(server, VICTIM, new byte[0])) {
      assertThat(first.allocate(8)).hasSize(3);
      assertThat(code(() -> first.allocate(1))).isEqualTo(ErrorCode.QUOTA_EXCEEDED);
      try (RemoteConnection again = open(server, VICTIM, new byte[0])) {
        assertThat(again.allocate(8)).as("only what the node has left").hasSize(1);
        assertThat(code(() -> again.allocate(1))).isEqualTo(ErrorCode.QUOTA_EXCEEDED);
      }
      ClientIdentity renamed =
          new ClientIdentity("127.0.0.1:1", 4242, 1_700_000_000_000L, 78, "attempt_victim_1");
      try (RemoteConnection fresh = open(server, renamed, new byte[0])) {
        assertThat(code(() -> fresh.allocate(1))).isEqualTo(ErrorCode.QUOTA_EXCEEDED);
      }
    }
  }

  @Test
  void anOldClientIsToldItsVersionIsNotSpoken() throws Exception {
    SpongeServer server = fixture.start("node-a", 4);
    try (RawClient old = new RawClient(server.address())) {
      assertThat(old.receive().opcode).isEqualTo(Opcode.CHALLENGE);
      ByteBuffer header = ByteBuffer.allocate(Frame.HEADER_SIZE);
      Frame.putHeader(header, Opcode.HELLO, 0, 1, 0);
      header.put(4, (byte) 1);
      old.sendRaw(header.array());
      WireException error = old.receive().error();
      assertThat(error.code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
      assertThat(error.reason()).contains("protocol version 1 is not supported");
      assertThat(old.closedByServer()).isTrue();
    }
  }
}
