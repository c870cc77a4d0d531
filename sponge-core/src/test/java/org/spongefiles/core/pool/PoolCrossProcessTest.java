package org.spongefiles.core.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.TestResources;

/** The pool shared by real separate JVMs: concurrent first use, allocation, and SIGKILL. */
@Timeout(120)
class PoolCrossProcessTest {
  @RegisterExtension final TestResources resources = new TestResources();
  private final Path dir = resources.shmDir("xproc");
  private final Path stderr = resources.tempFile("pool-child", ".err");

  @Test
  void concurrentFirstUseCreatesExactlyOnePool() throws Exception {
    List<ChildJvm> children = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        children.add(ChildJvm.start(PoolChild.class, stderr, "open", dir.toString(), "x"));
      }
      Set<String> ids = new HashSet<>();
      for (ChildJvm child : children) {
        ids.add(child.awaitLine("OPENED", 60, TimeUnit.SECONDS));
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isZero();
      }
      assertThat(ids).as("every process attached to the same pool").hasSize(1);
      try (Stream<Path> files = Files.list(dir)) {
        List<String> names =
            files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        // One metadata file, 4 segments of 16 MiB and the written extents beside the lease
        // directory; no temporary or losing files left behind.
        assertThat(names)
            .hasSize(7)
            .contains("x.meta", "sponge-leases")
            .anyMatch(n -> n.endsWith(".extents"));
        assertThat(names).noneMatch(n -> n.contains("tmp"));
      }
      try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "x"))) {
        assertThat(String.valueOf(pool.poolId())).isEqualTo(ids.iterator().next().substring(7));
        assertThat(pool.freeChunks()).isEqualTo(pool.chunkCount());
      }
    } finally {
      for (ChildJvm child : children) {
        child.close();
      }
    }
  }

  @Test
  void twoProcessesAllocatingAtOnceNeverGetTheSameChunk() throws Exception {
    SharedPool.open(PoolChild.spec(dir, "x"))
        .close(); // created up front; the race is on allocation here
    try (ChildJvm a =
            ChildJvm.start(PoolChild.class, stderr, "churn", dir.toString(), "x", "3000", "1");
        ChildJvm b =
            ChildJvm.start(PoolChild.class, stderr, "churn", dir.toString(), "x", "3000", "2")) {
      Map<Long, Set<Integer>> heldByPid = new HashMap<>();
      Map<Long, Long> leaseByPid = new HashMap<>();
      Map<Integer, Long> generation = new HashMap<>();
      for (ChildJvm child : List.of(a, b)) {
        String lease = child.awaitLine("LEASE", 90, TimeUnit.SECONDS).substring(6);
        leaseByPid.put(child.pid(), Long.parseUnsignedLong(lease, 16));
        String line = child.awaitLine("HELD", 90, TimeUnit.SECONDS);
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isZero();
        Set<Integer> held = new HashSet<>();
        for (String entry : line.substring(4).trim().split(" ")) {
          if (!entry.isEmpty()) {
            String[] parts = entry.split(":");
            held.add(Integer.parseInt(parts[0]));
            generation.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
          }
        }
        heldByPid.put(child.pid(), held);
      }
      Set<Integer> heldA = heldByPid.get(a.pid());
      Set<Integer> heldB = heldByPid.get(b.pid());
      assertThat(heldA).doesNotContainAnyElementsOf(heldB);
      try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "x"))) {
        assertThat(pool.freeChunks())
            .as("free count is exact")
            .isEqualTo(pool.chunkCount() - heldA.size() - heldB.size());
        Map<Integer, OwnerEntry> entries = new HashMap<>();
        pool.owners().forEach(e -> entries.put(e.chunk(), e));
        assertThat(entries.keySet()).containsExactlyInAnyOrderElementsOf(union(heldA, heldB));
        for (Map.Entry<Long, Set<Integer>> owner : heldByPid.entrySet()) {
          for (int chunk : owner.getValue()) {
            OwnerEntry entry = entries.get(chunk);
            assertThat(entry.owner().lease()).isEqualTo(leaseByPid.get(owner.getKey()));
            assertThat(entry.owner().pid()).isEqualTo(owner.getKey().intValue());
            assertThat(entry.generation()).isEqualTo(generation.get(chunk));
            ByteBuffer bytes = pool.chunkBuffer(chunk);
            assertThat(bytes.getInt(0))
                .as("stamp of chunk %d", chunk)
                .isEqualTo(owner.getKey().intValue());
            assertThat(bytes.getInt(4)).isEqualTo(chunk);
            assertThat(bytes.getLong(8)).isEqualTo(generation.get(chunk));
          }
        }
        // Both children are gone now, and their leases with them: every chunk is an orphan.
        assertThat(pool.reclaimOrphans()).isEqualTo(heldA.size() + heldB.size());
        assertThat(pool.freeChunks()).isEqualTo(pool.chunkCount());
      }
    }
  }

  @Test
  void aKilledLockHolderIsTakenOverWithinASecondAndItsChunksReclaimed() throws Exception {
    try (SharedPool pool = SharedPool.open(PoolChild.spec(dir, "x"));
        ChildJvm holder =
            ChildJvm.start(PoolChild.class, stderr, "hold", dir.toString(), "x", "7")) {
      ChunkOwner live = ChunkOwner.of(pool.leases().processLease(), "live");
      List<PoolChunk> mine = pool.allocate(live, 5);
      String[] ready = holder.awaitLine("READY", 60, TimeUnit.SECONDS).split(" ");
      assertThat(pool.lockHolder()).isEqualTo(Long.parseUnsignedLong(ready[2], 16));
      assertThat(pool.leases().isAlive(pool.lockHolder())).isTrue();
      assertThat(pool.freeChunks()).isEqualTo(pool.chunkCount() - 12);

      holder.kill();
      long start = System.nanoTime();
      PoolChunk next = pool.allocateOne(live);
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      assertThat(next).isNotNull();
      assertThat(tookMillis).as("lock taken over from the dead holder").isLessThan(1000);
      assertThat(pool.stats().lockTakeovers()).isEqualTo(1);

      assertThat(pool.reclaimOrphans()).isEqualTo(7);
      List<Integer> left =
          pool.owners().stream().map(OwnerEntry::chunk).sorted().collect(Collectors.toList());
      List<Integer> expected = new ArrayList<>();
      mine.forEach(c -> expected.add(c.index()));
      expected.add(next.index());
      expected.sort(null);
      assertThat(left).as("live owner's chunks untouched").isEqualTo(expected);
      for (PoolChunk chunk : mine) {
        assertThat(pool.isCurrent(chunk)).isTrue();
      }
      assertThat(pool.freeChunks()).isEqualTo(pool.chunkCount() - 6);
    }
  }

  private static Set<Integer> union(Set<Integer> a, Set<Integer> b) {
    Set<Integer> all = new HashSet<>(a);
    all.addAll(b);
    return all;
  }
}
