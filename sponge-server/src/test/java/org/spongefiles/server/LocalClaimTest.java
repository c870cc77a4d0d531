package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.pool.Lease;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkHandles;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;

/**
 * Real sockets from 127.0.0.2 to a server whose endpoint is 127.0.0.1: a peer of this host (all of
 * 127.0.0.0/8 is this host) naming the server's endpoint with the lease its process holds beside
 * the pool is a local task; a claim naming a lease nobody holds is checked like any local one and
 * its chunks are freed by the next sweep, whether or not its connection is still open; a claim
 * naming no lease holds no chunk at all.
 */
@Timeout(60)
class LocalClaimTest {
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private SpongeServer server;
  private RawClient client;

  @BeforeEach
  void setUp() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 16);
    server = fixture.start(conf);
    client = new RawClient(server.address(), InetAddress.getByName("127.0.0.2"));
  }

  @AfterEach
  void tearDown() throws Exception {
    client.close();
  }

  private List<ChunkHandle> allocate(int count) throws Exception {
    client.send(Opcode.ALLOCATE, 0, 2, ByteBuffer.allocate(4).putInt(count).array());
    RawClient.Received reply = client.receive();
    if (reply.opcode == Opcode.ERROR) {
      throw reply.error();
    }
    return ChunkHandles.decode(reply.payload, "server");
  }

  private Hello hello(int pid, long lease, String task) {
    return new Hello(
        server.endpoint(), pid, lease, 7, task, new byte[0], new byte[32], new byte[0]);
  }

  @Test
  void aTaskOfThisHostNamingTheEndpointIsLocal() throws Exception {
    long lease = server.pool().processLease().id();
    client.hello(hello(ProcessLiveness.currentPid(), lease, "attempt_local_claim"));

    List<ChunkHandle> chunks = allocate(5);

    assertThat(chunks).as("no node quota for this node's tasks").hasSize(5);
    assertThat(server.pool().owners())
        .hasSize(5)
        .allSatisfy(entry -> assertThat(entry.owner().isLocal()).isTrue());
    assertThat(server.reclaimNow()).as("a live local process keeps its chunks").isZero();
  }

  @Test
  void aLeaseNobodyHoldsLosesItsChunksAtTheNextSweep() throws Exception {
    Lease ended = server.pool().leases().acquire();
    long id = ended.id();
    ended.close();
    client.hello(hello(1, id, "attempt_ended_lease"));

    assertThat(allocate(5)).hasSize(5);

    assertThat(server.reclaimNow()).as("the lease's holder is gone").isEqualTo(5);
    assertThat(server.pool().freeChunks()).isEqualTo(16);
  }

  @Test
  void aClaimWithoutALeaseHoldsNoChunk() throws Exception {
    client.hello(hello(1, 0, "attempt_no_lease"));

    assertThatThrownBy(() -> allocate(1))
        .isInstanceOfSatisfying(
            WireException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.QUOTA_EXCEEDED);
              assertThat(e.getMessage()).contains("attempt_no_lease").contains("lease 0");
            });
    assertThat(server.pool().freeChunks()).isEqualTo(16);
  }
}
