package org.spongefiles.core.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.PidNamespace;
import org.spongefiles.testkit.TestResources;

/**
 * Processes in a pid namespace of their own (pid 1 there, as under YARN's Docker runtime) share the
 * host's pool: their chunks live while they do, are orphans once they are killed, and a lock they
 * held when killed is taken over. Skipped, saying why, without root or unshare.
 */
@Timeout(180)
class PoolPidNamespaceTest {
  @RegisterExtension final TestResources resources = new TestResources();
  private final Path dir = resources.shmDir("pidns");
  private final Path stderr = resources.tempFile("pidns-child", ".err");

  @BeforeAll
  static void needsNamespaces() {
    PidNamespace.assumeAvailable();
  }

  private ChildJvm namespaced(String... args) throws Exception {
    return ChildJvm.startWrapped(PidNamespace.WRAPPER, PoolChild.class, stderr, List.of(), args);
  }

  @Test
  void aNamespacedProcessKeepsItsChunksWhileAliveAndLosesThemWhenKilled() throws Exception {
    try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "x"));
        ChildJvm child = namespaced("keep", dir.toString(), "x", "20")) {
      ChunkOwner host = ChunkOwner.of(pool.leases().processLease(), "host-task");
      List<PoolChunk> mine = pool.allocate(host, 3);
      assertThat(child.awaitLine("PID", 60, TimeUnit.SECONDS))
          .as("the child is pid 1 of its own namespace")
          .isEqualTo("PID 1");
      String[] kept = child.awaitLine("KEPT", 60, TimeUnit.SECONDS).split(" ");
      long lease = Long.parseUnsignedLong(kept[1], 16);

      // Well past any reclaim period, with reclaims run from the host all along.
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      while (System.nanoTime() < until) {
        assertThat(pool.reclaimOrphans()).as("nothing of a live namespaced task").isZero();
        Thread.sleep(200);
      }
      assertThat(chunksOf(pool, lease)).hasSize(20);
      assertThat(pool.owners().stream().filter(e -> e.owner().lease() == lease))
          .allMatch(e -> e.owner().pid() == 1);
      child.sendLine("VERIFY");
      assertThat(child.awaitLine("VERIFIED", 30, TimeUnit.SECONDS))
          .as("every byte it wrote, read back")
          .isEqualTo("VERIFIED " + kept[2]);

      child.kill();
      assertThat(pool.leases().isAlive(lease)).isFalse();
      assertThat(pool.reclaimOrphans()).isEqualTo(20);
      assertThat(chunksOf(pool, lease)).isEmpty();
      assertThat(pool.owners().stream().map(OwnerEntry::chunk).collect(Collectors.toList()))
          .as("the host task's chunks untouched")
          .containsExactlyInAnyOrderElementsOf(
              mine.stream().map(PoolChunk::index).collect(Collectors.toList()));
      assertThat(pool.freeChunks()).isEqualTo(pool.chunkCount() - 3);
    }
  }

  @Test
  void aLockHeldByAKilledNamespacedProcessIsTakenOver() throws Exception {
    try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "x"));
        ChildJvm holder = namespaced("hold", dir.toString(), "x", "7")) {
      ChunkOwner host = ChunkOwner.of(pool.leases().processLease(), "host-task");
      String[] ready = holder.awaitLine("READY", 60, TimeUnit.SECONDS).split(" ");
      long lease = Long.parseUnsignedLong(ready[2], 16);
      assertThat(pool.lockHolder()).isEqualTo(lease);

      holder.kill();
      long start = System.nanoTime();
      List<PoolChunk> got = pool.allocate(host, 4);
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(got).hasSize(4);
      assertThat(tookMillis).as("lock taken over from the dead holder").isLessThan(1000);
      assertThat(pool.stats().lockTakeovers()).isEqualTo(1);
      assertThat(pool.lockHolder()).as("released after the allocation").isZero();
      assertThat(pool.reclaimOrphans()).isEqualTo(7);
      assertThat(pool.freeChunks()).isEqualTo(pool.chunkCount() - 4);
    }
  }

  private static List<OwnerEntry> chunksOf(SharedPool pool, long lease) {
    return pool.owners().stream()
        .filter(e -> e.owner().lease() == lease)
        .collect(Collectors.toList());
  }
}
