package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.pool.Lease;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkHandles;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;

/**
 * A session that READs a chunk without draining its socket, then FREEs the chunk on a second
 * connection, never receives the bytes of the chunk's next owner: the chunk stays out of the pool
 * until the queued replies are sent, and those carry the session's own bytes.
 */
class ReadAfterFreeTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final int CHUNKS = 4;
  private static final int READS = 400; // 25 MiB of replies: more than the socket buffers hold
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private SpongeServer server;
  private final List<RawClient> clients = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    server = fixture.start("node-a", CHUNKS);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (RawClient client : clients) {
      client.close();
    }
  }

  private RawClient connect() throws Exception {
    RawClient client = new RawClient(server.address());
    clients.add(client);
    return client;
  }

  private static Hello hello(String task, byte[] ticket) {
    return new Hello(
        "",
        ProcessLiveness.currentPid(),
        Lease.jvmLocalId(),
        task.hashCode(),
        task,
        ticket,
        new byte[32],
        new byte[0]);
  }

  private static List<ChunkHandle> allocate(RawClient client, int count) throws Exception {
    client.send(Opcode.ALLOCATE, 0, 2, ByteBuffer.allocate(4).putInt(count).array());
    RawClient.Received reply = client.receive();
    assertThat(reply.opcode).isEqualTo(Opcode.ALLOCATED);
    return ChunkHandles.decode(reply.payload, "server");
  }

  private static void write(RawClient client, ChunkHandle chunk, byte[] bytes) throws Exception {
    ByteBuffer body = ByteBuffer.allocate(ChunkRange.WRITE_HEAD + bytes.length);
    new ChunkRange(chunk, 0, bytes.length).putWriteHead(body);
    body.put(bytes);
    client.send(Opcode.WRITE, 0, 3, body.array());
    assertThat(client.receive().opcode).isEqualTo(Opcode.WRITTEN);
  }

  private static byte[] random(long seed) {
    byte[] bytes = new byte[CHUNK];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** The server's side of {@code client}'s connection. */
  private Channel serverSide(RawClient client) {
    for (Channel channel : server.connections()) {
      if (((InetSocketAddress) channel.remoteAddress()).getPort() == client.localPort()) {
        return channel;
      }
    }
    throw new AssertionError("no connection from port " + client.localPort());
  }

  @Test
  void queuedReadsOfAFreedChunkCarryItsOwnersBytesNeverTheNextOwners() throws Exception {
    RawClient reader = connect();
    byte[] ticket = reader.hello(hello("attempt_reader", new byte[0]));
    ChunkHandle chunk = allocate(reader, 1).get(0);
    byte[] own = random(1);
    write(reader, chunk, own);
    byte[] read = new ChunkRange(chunk, 0, CHUNK).encodeRead().array();
    for (int i = 0; i < READS; i++) {
      reader.send(Opcode.READ, 0, 100 + i, read);
    }
    Channel readerSide = serverSide(reader);
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (readerSide.isWritable() && System.nanoTime() < deadline) {
      Thread.sleep(5); // until replies queue up on the server, unread by the reader
    }
    assertThat(readerSide.isWritable()).as("replies are queued on the server").isFalse();

    RawClient sameSession = connect();
    sameSession.hello(hello("attempt_reader", ticket));
    sameSession.send(Opcode.FREE, 0, 4, toArray(ChunkHandles.encode(List.of(chunk))));
    RawClient.Received freed = sameSession.receive();
    assertThat(freed.opcode).isEqualTo(Opcode.FREED);
    assertThat(freed.payload.getInt()).as("answered as freed").isEqualTo(1);
    sameSession.send(Opcode.READ, 0, 5, read);
    RawClient.Received gone = sameSession.receive();
    assertThat(gone.opcode).isEqualTo(Opcode.ERROR);
    assertThat(gone.error().code()).as("gone for the session").isEqualTo(ErrorCode.NO_SUCH_CHUNK);

    RawClient other = connect();
    other.hello(hello("attempt_other", new byte[0]));
    byte[] theirs = random(2);
    List<ChunkHandle> taken = allocate(other, CHUNKS);
    for (ChunkHandle handle : taken) {
      write(other, handle, theirs);
    }

    int data = 0;
    for (int i = 0; i < READS; i++) {
      RawClient.Received reply = reader.receive();
      assertThat(reply.requestId).isEqualTo(100 + i);
      if (reply.opcode == Opcode.ERROR) {
        // a READ the server reached only after the FREE
        assertThat(reply.error().code()).isEqualTo(ErrorCode.NO_SUCH_CHUNK);
      } else {
        assertThat(reply.opcode).isEqualTo(Opcode.DATA);
        assertThat(crc(toArray(reply.payload)))
            .as(
                "checksum of reply %d: the reader's own bytes (%x), not the other's (%x)",
                i, crc(own), crc(theirs))
            .isEqualTo(crc(own));
        data++;
      }
    }
    assertThat(data).as("replies queued before the FREE").isGreaterThan(0);
    assertThat(taken).extracting(h -> h.index).doesNotContain(chunk.index);
    deadline = System.nanoTime() + 10_000_000_000L;
    while (server.pool().freeChunks() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(server.pool().freeChunks())
        .as("the chunk returns to the pool after its last reply")
        .isEqualTo(1);
    assertThat(allocate(other, 1)).extracting(h -> h.index).containsExactly(chunk.index);
  }

  private static long crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }

  private static byte[] toArray(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }
}
