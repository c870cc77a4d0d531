package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.ConnectionPool;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.remote.RemoteTier;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.remote.StaticServerSource;
import org.spongefiles.core.tier.FileKey;
import org.spongefiles.core.tier.StoredChunk;
import org.spongefiles.testkit.RandomBytes;

/**
 * Under contention, a server that refused one of a task's threads (its pool taken by the task's own
 * refill of its reserve) still takes the chunks the task holds reserved there: the refusal's
 * back-off does not send them to disk.
 */
class ReservedChunksTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final int BATCH = 4;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  @Test
  void aRefusedThreadDoesNotKeepTheTaskFromItsOwnReservedChunks() throws Exception {
    SpongeServer server = fixture.start("node-b", 2 * BATCH);
    ServerAddress address = ServerAddress.parse(server.endpoint());
    ClientIdentity identity =
        new ClientIdentity("127.0.0.1:1", 4343, 1_700_000_000_000L, 91, "attempt_reserve_0");
    RemoteSettings settings =
        new RemoteSettings(
            List.of(address),
            Duration.ofSeconds(2),
            Duration.ofSeconds(10),
            4,
            BATCH,
            Duration.ofMinutes(5), // the refusal back-off outlasts the test
            Duration.ofSeconds(5),
            false);
    ConnectionPool connections =
        new ConnectionPool(
            identity, null, null, settings.connectTimeout(), settings.ioTimeout(), BATCH);
    FileKey file = new FileKey("attempt_reserve_0", 1, "spill");
    List<StoredChunk> stored = new ArrayList<>();
    try (RemoteTier tier =
        new RemoteTier(new StaticServerSource(List.of(address)), connections, settings)) {
      // The first batch: one chunk written, three in reserve; the next two take from it.
      for (int i = 0; i < BATCH - 1; i++) {
        stored.add(tier.store(file, chunk(i)));
      }
      // The last reserved chunk's WRITE carries the ALLOCATE that refills the reserve and takes
      // the rest of the pool. While the server holds that WRITE, another thread of the task finds
      // the reserve empty, asks for chunks itself and is refused: the server is full.
      CompletableFuture<StoredChunk> refused = new CompletableFuture<>();
      stored.add(
          tier.store(
              file,
              chunk(BATCH - 1),
              () -> {
                awaitFull(server);
                refused.complete(
                    CompletableFuture.supplyAsync(() -> storeQuietly(tier, file, chunk(99)))
                        .join());
              }));
      assertThat(refused.get(30, TimeUnit.SECONDS)).as("no room at that moment").isNull();

      // The refill arrived after the refusal: the four reserved chunks are the task's to use.
      for (int i = BATCH; i < 2 * BATCH; i++) {
        StoredChunk chunk = tier.store(file, chunk(i));
        assertThat(chunk).as("chunk %d, from the task's reserve", i).isNotNull();
        stored.add(chunk);
      }
      assertThat(tier.store(file, chunk(2 * BATCH))).as("the pool is now full").isNull();
      assertThat(server.pool().freeChunks()).isZero();
      for (int i = 0; i < stored.size(); i++) {
        ByteBuffer back = ByteBuffer.allocate(CHUNK);
        stored.get(i).read(0, back);
        assertThat(back.array()).as("chunk %d", i).isEqualTo(RandomBytes.array(i, CHUNK));
      }
      tier.delete(file, stored);
    }
    assertThat(server.pool().freeChunks()).isEqualTo(2 * BATCH);
  }

  private static ByteBuffer chunk(int seed) {
    return ByteBuffer.wrap(RandomBytes.array(seed, CHUNK));
  }

  private static StoredChunk storeQuietly(RemoteTier tier, FileKey file, ByteBuffer data) {
    try {
      return tier.store(file, data);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void awaitFull(SpongeServer server) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.pool().freeChunks() > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the refill never took the pool: " + server.pool().freeChunks());
      }
      Thread.onSpinWait();
    }
  }
}
