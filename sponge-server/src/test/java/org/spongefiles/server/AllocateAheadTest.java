package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.testkit.RandomBytes;

/**
 * An ALLOCATE sent ahead of a WRITE in one go (how a task refills its reserve of chunks): both are
 * answered in order on a real server, the new chunks are usable, and a refused ALLOCATE gives none
 * while the WRITE still lands and the connection stays usable.
 */
class AllocateAheadTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final ClientIdentity TASK =
      new ClientIdentity("127.0.0.1:1", 4242, 1_700_000_000_000L, 77, "attempt_ahead_0");
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  private static RemoteConnection open(SpongeServer server) throws Exception {
    return RemoteConnection.open(
        ServerAddress.parse(server.endpoint()),
        TASK,
        null,
        Duration.ofSeconds(2),
        Duration.ofSeconds(5));
  }

  private static byte[] readBack(RemoteConnection connection, ChunkHandle chunk) throws Exception {
    ByteBuffer back = ByteBuffer.allocate(CHUNK);
    connection.read(chunk, 0, back);
    return back.array();
  }

  @Test
  void theChunksAllocatedAheadArriveWithTheWriteAndTakeData() throws Exception {
    SpongeServer server = fixture.start("node-a", 16);
    byte[] first = RandomBytes.array(1, CHUNK);
    byte[] second = RandomBytes.array(2, CHUNK);
    try (RemoteConnection connection = open(server)) {
      ChunkHandle chunk = connection.allocate(1).get(0);
      List<ChunkHandle> ahead = new ArrayList<>();
      connection.writeAndAllocate(
          chunk, 0, ByteBuffer.allocateDirect(CHUNK).put(first).flip(), 3, ahead::addAll, () -> {});
      assertThat(ahead).hasSize(3).doesNotContain(chunk);
      assertThat(server.pool().freeChunks()).isEqualTo(12);
      connection.write(ahead.get(0), 0, ByteBuffer.wrap(second));
      assertThat(readBack(connection, chunk)).isEqualTo(first);
      assertThat(readBack(connection, ahead.get(0))).isEqualTo(second);
      ahead.add(chunk);
      assertThat(connection.free(ahead)).isEqualTo(4);
    }
    assertThat(server.pool().freeChunks()).isEqualTo(16);
  }

  @Test
  void aRefusedAllocateAheadGivesNoChunksAndTheWriteStillLands() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 16);
    ServerOptions.QUOTA_PER_TASK.set(conf, (long) CHUNK);
    SpongeServer server = fixture.start(conf);
    byte[] data = RandomBytes.array(3, CHUNK);
    try (RemoteConnection connection = open(server)) {
      ChunkHandle chunk = connection.allocate(4).get(0);
      List<ChunkHandle> ahead = new ArrayList<>();
      connection.writeAndAllocate(chunk, 0, ByteBuffer.wrap(data), 4, ahead::addAll, () -> {});
      assertThat(ahead).as("over the task's quota").isEmpty();
      assertThat(connection.isBroken()).isFalse();
      assertThat(readBack(connection, chunk)).isEqualTo(data);
      assertThatThrownBy(() -> connection.allocate(1))
          .as("the next allocation sees the refusal itself")
          .isInstanceOfSatisfying(
              WireException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUOTA_EXCEEDED));
    }
  }
}
