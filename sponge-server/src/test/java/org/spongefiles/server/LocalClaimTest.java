package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.pool.OwnerEntry;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkHandles;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;

/**
 * Real sockets from 127.0.0.2 to a server whose endpoint is 127.0.0.1: a peer of this host (all of
 * 127.0.0.0/8 is this host) naming the server's endpoint with its real pid and start time is a
 * local task; the same claim with pid 1 and no start time cannot be checked, so it is counted
 * against a node quota and its chunks are freed once the grace period passes, whether or not its
 * connection is still open.
 */
@Timeout(60)
class LocalClaimTest {
  private static final int NODE_QUOTA = 2;
  private ServerFixture fixture;
  private SpongeServer server;
  private RawClient client;

  @BeforeEach
  void setUp() throws Exception {
    fixture = new ServerFixture();
    Configuration conf = fixture.serverConf("node-a", 16);
    conf.set(
        "sponge.server.quota.per.node", Long.toString(NODE_QUOTA * (long) ServerFixture.CHUNK));
    conf.set("sponge.server.reclaim.grace", "300ms");
    server = fixture.start(conf);
    client = new RawClient(server.address(), InetAddress.getByName("127.0.0.2"));
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
    fixture.close();
  }

  private List<ChunkHandle> allocate(int count) throws Exception {
    client.send(Opcode.ALLOCATE, 0, 2, ByteBuffer.allocate(4).putInt(count).array());
    RawClient.Received reply = client.receive();
    if (reply.opcode == Opcode.ERROR) {
      throw reply.error();
    }
    return ChunkHandles.decode(reply.payload, "server");
  }

  @Test
  void aTaskOfThisHostNamingTheEndpointIsLocal() throws Exception {
    client.hello(
        new Hello(
            server.endpoint(),
            ProcessLiveness.currentPid(),
            ProcessLiveness.currentStartMillis(),
            7,
            "attempt_local_claim",
            new byte[0],
            new byte[32],
            new byte[0]));

    List<ChunkHandle> chunks = allocate(5);

    assertThat(chunks).as("no node quota for this node's tasks").hasSize(5);
    assertThat(server.pool().owners())
        .hasSize(5)
        .allSatisfy(entry -> assertThat(entry.owner().isLocal()).isTrue());
    assertThat(server.reclaimNow()).as("a live local process keeps its chunks").isZero();
  }

  @Test
  void pidOneWithoutAStartTimeIsNotLocalAndExpires() throws Exception {
    client.hello(
        new Hello(
            server.endpoint(), 1, 0, 7, "attempt_pid_one", new byte[0], new byte[32], new byte[0]));

    List<ChunkHandle> chunks = allocate(5);

    assertThat(chunks).as("counted against the node quota").hasSize(NODE_QUOTA);
    List<OwnerEntry> owners = server.pool().owners();
    assertThat(owners).hasSize(NODE_QUOTA);
    for (OwnerEntry entry : owners) {
      assertThat(entry.owner().isLocal()).isFalse();
      assertThat(server.pool().hostName(entry.owner().host())).isEqualTo("?127.0.0.2");
    }
    Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> server.pool().freeChunks() == 16);
  }
}
