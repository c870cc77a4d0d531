package org.spongefiles.core.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.TestResources;

/**
 * A pool chunk's bytes never reach its next owner: a chunk freed, or reclaimed from a killed
 * process, and lent again reads as zeros until its new owner writes it, and then as exactly what
 * that owner wrote (real pool files on /dev/shm, a real second process).
 */
@Timeout(120)
class ChunkHandoverTest {
  @RegisterExtension final TestResources resources = new TestResources();
  private final Path dir = resources.shmDir("handover");
  private final Path stderr = resources.tempFile("handover-child", ".err");

  private static ByteBuffer patterned(int chunk, int length) {
    ByteBuffer bytes = ByteBuffer.allocate(length);
    for (int i = 0; i < length; i++) {
      bytes.put(i, PoolChild.pattern(chunk, i));
    }
    return bytes;
  }

  private static void assertAllZero(ByteBuffer bytes, int from, String what) {
    for (int i = from; i < bytes.limit(); i++) {
      if (bytes.get(i) != 0) {
        throw new AssertionError(what + ": byte " + i + " is " + bytes.get(i) + ", not 0");
      }
    }
  }

  private static ByteBuffer readWhole(SharedPool pool, int chunk) throws Exception {
    ByteBuffer read = ByteBuffer.allocate(pool.chunkSize());
    pool.read(chunk, 0, read);
    assertThat(read.hasRemaining()).isFalse();
    return read.flip();
  }

  @Test
  void aFreedChunkReadsAsZerosForItsNextOwner() throws Exception {
    try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "h"))) {
      ChunkOwner first = ChunkOwner.of(pool.leases().processLease(), "attempt_first");
      ChunkOwner next = ChunkOwner.of(pool.leases().processLease(), "attempt_next");
      PoolChunk chunk = pool.allocateOne(first);
      pool.write(chunk.index(), 0, patterned(chunk.index(), pool.chunkSize()));
      assertThat(readWhole(pool, chunk.index()))
          .isEqualTo(patterned(chunk.index(), pool.chunkSize()));
      assertThat(pool.free(first, List.of(chunk))).isEqualTo(1);

      PoolChunk lent = pool.allocateOne(next);

      assertThat(lent.index()).as("the chunk just freed is lent first").isEqualTo(chunk.index());
      assertAllZero(readWhole(pool, lent.index()), 0, "read before writing");
      ByteBuffer middle = ByteBuffer.allocate(1000);
      pool.read(lent.index(), 30_000, middle);
      assertAllZero(middle.flip(), 0, "read of the middle before writing");
    }
  }

  @Test
  void readsWithinWhatTheOwnerWroteReturnItsBytesAndZerosPastThem() throws Exception {
    try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "h"))) {
      ChunkOwner first = ChunkOwner.of(pool.leases().processLease(), "attempt_first");
      ChunkOwner next = ChunkOwner.of(pool.leases().processLease(), "attempt_next");
      PoolChunk chunk = pool.allocateOne(first);
      pool.write(chunk.index(), 0, patterned(chunk.index(), pool.chunkSize()));
      pool.free(first, List.of(chunk));
      PoolChunk lent = pool.allocateOne(next);
      assertThat(lent.index()).isEqualTo(chunk.index());
      byte[] mine = new byte[5000];
      for (int i = 0; i < mine.length; i++) {
        mine[i] = (byte) (i % 251 + 1);
      }

      pool.write(lent.index(), 0, ByteBuffer.wrap(mine));
      // A write that starts past what was written: the gap reads as zeros, not as old bytes.
      pool.write(lent.index(), 20_000, ByteBuffer.wrap(mine, 0, 100));

      ByteBuffer whole = readWhole(pool, lent.index());
      byte[] head = new byte[mine.length];
      whole.duplicate().get(head);
      assertThat(head).isEqualTo(mine);
      for (int i = mine.length; i < 20_000; i++) {
        assertThat(whole.get(i)).as("gap byte %d", i).isZero();
      }
      for (int i = 0; i < 100; i++) {
        assertThat(whole.get(20_000 + i)).isEqualTo(mine[i]);
      }
      assertAllZero(whole, 20_100, "past what the owner wrote");
      assertThat(pool.writtenLength(lent)).isEqualTo(20_100);
    }
  }

  @Test
  void aChunkReclaimedFromAKilledProcessReadsAsZerosForItsNextOwner() throws Exception {
    List<Integer> filled = new ArrayList<>();
    try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "h"));
        ChildJvm child =
            ChildJvm.start(PoolChild.class, stderr, "fill", dir.toString(), "h", "3")) {
      String line = child.awaitLine("FILLED", 60, TimeUnit.SECONDS);
      for (String index : line.substring("FILLED ".length()).split(" ")) {
        filled.add(Integer.parseInt(index));
      }
      assertThat(filled).hasSize(3);
      for (int chunk : filled) {
        assertThat(readWhole(pool, chunk))
            .as("the child's bytes, while it owns the chunk")
            .isEqualTo(patterned(chunk, pool.chunkSize()));
      }
      child.kill();
      assertThat(pool.reclaimOrphans()).isEqualTo(3);

      List<PoolChunk> lent =
          pool.allocate(ChunkOwner.of(pool.leases().processLease(), "attempt_after_kill"), 3);

      assertThat(lent).extracting(PoolChunk::index).containsExactlyInAnyOrderElementsOf(filled);
      for (PoolChunk chunk : lent) {
        assertAllZero(readWhole(pool, chunk.index()), 0, "reclaimed " + chunk);
      }
    }
  }
}
