package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.Lease;
import org.spongefiles.core.pool.PoolChunk;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkHandles;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;

/**
 * A WRITE whose data stops arriving is not work in progress: the idle timeout closes its connection
 * (the test fires the idle handler's event rather than wait the two-minute minimum), and shutdown
 * closes it at once instead of waiting for it.
 */
class StalledWriteTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final int SENT = 100;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  private static Hello hello() {
    return new Hello(
        "",
        ProcessLiveness.currentPid(),
        Lease.jvmLocalId(),
        7,
        "attempt_stalled",
        new byte[0],
        new byte[32],
        new byte[0]);
  }

  /**
   * Authenticates, allocates a chunk and sends a whole-chunk WRITE's head and {@link #SENT} bytes.
   */
  private static ChunkHandle stallAWrite(RawClient client) throws Exception {
    return stallAWrite(client, client.hello(hello()));
  }

  private static ChunkHandle stallAWrite(RawClient client, byte[] ticket) throws Exception {
    client.send(Opcode.ALLOCATE, 0, 2, ByteBuffer.allocate(4).putInt(1).array());
    RawClient.Received allocated = client.receive();
    assertThat(allocated.opcode).isEqualTo(Opcode.ALLOCATED);
    ChunkHandle chunk = ChunkHandles.decode(allocated.payload, "server").get(0);
    ByteBuffer frame = ByteBuffer.allocate(Frame.HEADER_SIZE + ChunkRange.WRITE_HEAD + SENT);
    Frame.putHeader(frame, Opcode.WRITE, 0, 3, ChunkRange.WRITE_HEAD + CHUNK);
    new ChunkRange(chunk, 0, CHUNK).putWriteHead(frame);
    while (frame.hasRemaining()) {
      frame.put((byte) 0x5A);
    }
    client.sendRaw(frame.array());
    return chunk;
  }

  @Test
  void theIdleTimeoutClosesAConnectionWhoseWriteStalled() throws Exception {
    SpongeServer server = fixture.start("node-a", 4);
    try (RawClient client = new RawClient(server.address())) {
      ChunkHandle chunk = stallAWrite(client);
      ByteBuffer bytes = server.pool().chunkBuffer(chunk.index);
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (bytes.get(SENT - 1) != 0x5A && System.nanoTime() < deadline) {
        Thread.sleep(5); // until the bytes sent are in the chunk: the WRITE is streaming
      }
      // What the idle handler fires after sponge.server.idle.timeout (at least 2 min) of silence.
      Channel connection = server.connections().iterator().next();
      connection
          .eventLoop()
          .submit(
              () ->
                  connection.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT))
          .sync();
      assertThat(client.closedByServer()).as("closed within the 5 s socket timeout").isTrue();
      Hello hello = hello();
      List<ChunkOwner> owners =
          server.pool().owners().stream()
              .map(entry -> entry.owner())
              .distinct()
              .collect(Collectors.toList());
      assertThat(owners).hasSize(1);
      assertThat(owners.get(0).pid()).isEqualTo(hello.pid);
      assertThat(
              server.pool().isOwnedBy(new PoolChunk(chunk.index, chunk.generation), owners.get(0)))
          .as("the chunk stays its owner's")
          .isTrue();
      for (int i = 0; i < CHUNK; i++) {
        assertThat(bytes.get(i)).as("byte %d", i).isEqualTo(i < SENT ? (byte) 0x5A : 0);
      }
    }
  }

  @Test
  void aChunkFreedWhileItsWriteDataArrivesTakesNoMoreOfItAndReturnsToThePoolAfterIt()
      throws Exception {
    SpongeServer server = fixture.start("node-a", 4);
    try (RawClient writer = new RawClient(server.address());
        RawClient sameSession = new RawClient(server.address())) {
      byte[] ticket = writer.hello(hello());
      ChunkHandle chunk = stallAWrite(writer, ticket);
      ByteBuffer bytes = server.pool().chunkBuffer(chunk.index);
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (bytes.get(SENT - 1) != 0x5A && System.nanoTime() < deadline) {
        Thread.sleep(5); // until the WRITE is streaming into the chunk
      }
      Hello again = hello();
      sameSession.hello(
          new Hello(
              again.livenessEndpoint,
              again.pid,
              again.lease,
              again.taskHash,
              again.taskId,
              ticket,
              again.clientNonce,
              again.proof));
      sameSession.send(Opcode.FREE, 0, 4, toArray(ChunkHandles.encode(List.of(chunk))));
      RawClient.Received freed = sameSession.receive();
      assertThat(freed.opcode).isEqualTo(Opcode.FREED);
      assertThat(freed.payload.getInt()).isEqualTo(1);
      assertThat(server.pool().freeChunks()).as("still receiving into it").isEqualTo(3);

      writer.sendRaw(new byte[CHUNK - SENT]); // the rest of the data: zeros
      RawClient.Received refused = writer.receive();
      assertThat(refused.opcode).isEqualTo(Opcode.ERROR);
      assertThat(refused.error().code()).isEqualTo(ErrorCode.NO_SUCH_CHUNK);
      assertThat(server.pool().freeChunks()).as("back in the pool after its data").isEqualTo(4);
    }
  }

  private static byte[] toArray(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  @Test
  void shutdownClosesAConnectionWhoseWriteStalledAtOnce() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 4);
    ServerOptions.SHUTDOWN_TIMEOUT.set(conf, Duration.ofMinutes(2));
    SpongeServer server = fixture.start(conf);
    try (RawClient client = new RawClient(server.address())) {
      stallAWrite(client);
      Thread closing = new Thread(server::close, "closing");
      closing.start();
      assertThat(client.closedByServer())
          .as("closed within the 5 s socket timeout, not the 2 min shutdown timeout")
          .isTrue();
      closing.join();
    }
  }
}
