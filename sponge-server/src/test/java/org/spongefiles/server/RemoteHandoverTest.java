package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.pool.Lease;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.WireException;

/**
 * A chunk lent by a real server never shows its earlier owner's bytes: freed, reclaimed from a dead
 * task, or freed after a quota refusal, it reads as zeros for its next session until that session
 * writes it, then as exactly what it wrote, also after a server restart.
 */
@Timeout(60)
class RemoteHandoverTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final int CHUNKS = 4;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Configuration conf;
  private SpongeServer server;

  @BeforeEach
  void setUp() throws Exception {
    conf = fixture.serverConf("node-a", CHUNKS);
    ServerOptions.QUOTA_PER_TASK.set(conf, 2L * CHUNK);
    server = fixture.start(conf);
  }

  private RemoteConnection open(ClientIdentity identity, byte[] ticket) throws Exception {
    return fixture.connect(server, identity, ticket);
  }

  /** A task of another node (whose server is down: its chunks stay until freed). */
  private RemoteConnection remoteTask(int n) throws Exception {
    return open(
        new ClientIdentity("127.0.0.1:1", 6000 + n, 1_700_000_000_000L + n, n, "attempt_h_" + n),
        new byte[0]);
  }

  private static byte[] pattern(int seed, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (0x80 | ((seed * 37 + i) & 0x7f)); // never 0
    }
    return bytes;
  }

  private static byte[] readWhole(RemoteConnection connection, ChunkHandle chunk) throws Exception {
    ByteBuffer back = ByteBuffer.allocate(CHUNK);
    connection.read(chunk, 0, back);
    assertThat(back.hasRemaining()).isFalse();
    return back.array();
  }

  private static void assertAllZero(byte[] bytes, int from, String what) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] != 0) {
        throw new AssertionError(what + ": byte " + i + " is " + bytes[i] + ", not 0");
      }
    }
  }

  /** Session {@code owner} fills {@code chunks} with its pattern; returns their indexes. */
  private static List<Integer> fill(RemoteConnection owner, List<ChunkHandle> chunks)
      throws Exception {
    List<Integer> indexes = new ArrayList<>();
    for (ChunkHandle chunk : chunks) {
      owner.write(chunk, 0, ByteBuffer.wrap(pattern(chunk.index, CHUNK)));
      assertThat(readWhole(owner, chunk)).isEqualTo(pattern(chunk.index, CHUNK));
      indexes.add(chunk.index);
    }
    return indexes;
  }

  /** Session {@code next} gets exactly the chunks {@code indexes} and reads only zeros. */
  private static void assertLentAsZeros(RemoteConnection next, List<Integer> indexes)
      throws Exception {
    List<ChunkHandle> lent = next.allocate(indexes.size());
    assertThat(lent).extracting(c -> c.index).containsExactlyInAnyOrderElementsOf(indexes);
    for (ChunkHandle chunk : lent) {
      assertAllZero(readWhole(next, chunk), 0, "chunk " + chunk.index + " read before writing");
    }
  }

  @Test
  void aFreedChunkReadsAsZerosForTheNextSession() throws Exception {
    RemoteConnection first = remoteTask(1);
    List<ChunkHandle> chunks = first.allocate(2);
    List<Integer> indexes = fill(first, chunks);
    assertThat(first.free(chunks)).isEqualTo(2);

    assertLentAsZeros(remoteTask(2), indexes);
  }

  @Test
  void chunksFreedAfterAQuotaRefusalReadAsZerosForTheNextSession() throws Exception {
    RemoteConnection first = remoteTask(1);
    List<ChunkHandle> chunks = first.allocate(3);
    assertThat(chunks).as("the quota of 2 chunks").hasSize(2);
    List<Integer> indexes = fill(first, chunks);
    assertThatThrownBy(() -> first.allocate(1))
        .isInstanceOfSatisfying(
            WireException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUOTA_EXCEEDED));
    assertThat(first.free(chunks)).isEqualTo(2);

    assertLentAsZeros(remoteTask(2), indexes);
  }

  @Test
  void aChunkReclaimedFromADeadTaskReadsAsZerosForTheNextSession() throws Exception {
    Lease ended = server.pool().leases().acquire();
    long lease = ended.id();
    ended.close();
    // A task of this node (loopback, naming this server) whose process has exited.
    RemoteConnection dead =
        open(
            ClientIdentity.leased(server.endpoint(), lease, 12345, 99, "attempt_h_dead"),
            new byte[0]);
    List<ChunkHandle> chunks = dead.allocate(2);
    List<Integer> indexes = fill(dead, chunks);
    assertThat(server.pool().owners()).allSatisfy(e -> assertThat(e.owner().isLocal()).isTrue());

    assertThat(server.reclaimNow()).isEqualTo(2);

    assertLentAsZeros(remoteTask(2), indexes);
  }

  @Test
  void aSessionReadsExactlyWhatItWroteAndZerosPastItAlsoAfterARestart() throws Exception {
    RemoteConnection first = remoteTask(1);
    List<ChunkHandle> chunks = first.allocate(1);
    fill(first, chunks);
    first.free(chunks);
    RemoteConnection next = remoteTask(2);
    ChunkHandle chunk = next.allocate(1).get(0);
    assertThat(chunk.index).isEqualTo(chunks.get(0).index);
    byte[] mine = pattern(7, 5000);
    next.write(chunk, 0, ByteBuffer.wrap(mine));
    next.write(chunk, 20_000, ByteBuffer.wrap(mine, 0, 100)); // past the written length

    byte[] seen = readWhole(next, chunk);
    assertWrittenBytes(seen, mine);

    byte[] ticket = next.ticket();
    server.close();
    server = fixture.start(conf);
    RemoteConnection again =
        open(new ClientIdentity("127.0.0.1:1", 6002, 1_700_000_000_002L, 2, "attempt_h_2"), ticket);
    assertWrittenBytes(readWhole(again, chunk), mine);
  }

  private static void assertWrittenBytes(byte[] seen, byte[] mine) {
    for (int i = 0; i < mine.length; i++) {
      assertThat(seen[i]).as("byte %d", i).isEqualTo(mine[i]);
    }
    for (int i = mine.length; i < 20_000; i++) {
      assertThat(seen[i]).as("gap byte %d", i).isZero();
    }
    for (int i = 0; i < 100; i++) {
      assertThat(seen[20_000 + i]).isEqualTo(mine[i]);
    }
    assertAllZero(seen, 20_100, "past what the session wrote");
  }
}
