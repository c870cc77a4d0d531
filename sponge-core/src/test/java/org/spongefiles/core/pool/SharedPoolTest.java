package org.spongefiles.core.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.TestDirs;

class SharedPoolTest {
  private Path dir;

  @BeforeEach
  void setUp() {
    dir = TestDirs.newShmDir("pool");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(dir);
  }

  private PoolSpec spec(long size, int chunk) {
    return new PoolSpec(dir, "p", size, chunk, 1L << 20, true, "rw-------", Duration.ofSeconds(2));
  }

  /** Task {@code task} of this process, under its lease beside the pool. */
  private ChunkOwner owner(String task) throws IOException {
    return ChunkOwner.of(LeaseDirectory.beside(dir).processLease(), task);
  }

  @Test
  void createsFormatsAndReattachesToTheSamePool() throws Exception {
    try (SharedPool first = SharedPool.open(spec(4L << 20, 64 << 10))) {
      assertThat(first.chunkCount()).isEqualTo(64);
      assertThat(first.chunkSize()).isEqualTo(64 << 10);
      assertThat(first.freeChunks()).isEqualTo(64);
      // 4 MiB in 1 MiB segments: four segment files and the written extents beside the metadata
      // file (and the lease directory, holding this process's lease).
      try (java.util.stream.Stream<Path> files = Files.list(dir)) {
        assertThat(files.filter(Files::isRegularFile).count()).isEqualTo(6);
      }
      assertThat(dir.resolve("sponge-leases")).isDirectory();
      try (SharedPool second = SharedPool.open(spec(999L << 20, 1 << 20))) {
        assertThat(second.poolId()).isEqualTo(first.poolId());
        assertThat(second.chunkSize())
            .as("an existing pool keeps its geometry")
            .isEqualTo(64 << 10);
      }
    }
  }

  @Test
  void touchAllAllocatesEveryPageAndChangesNoByte() throws Exception {
    long size = 64L << 20;
    try (SharedPool pool = SharedPool.open(spec(size, 1 << 20))) {
      ByteBuffer written = pool.chunkBuffer(7);
      for (int i = 0; i < written.capacity(); i++) {
        written.put(i, (byte) (i * 31 + 7));
      }

      assertThat(pool.touchAll()).isEqualTo(size);

      ByteBuffer read = pool.chunkBuffer(7);
      for (int i = 0; i < read.capacity(); i++) {
        assertThat(read.get(i)).as("byte %d", i).isEqualTo((byte) (i * 31 + 7));
      }
      assertThat(pool.chunkBuffer(8).getLong(0)).isZero();
    }
    assertThat(TestDirs.allocatedBytes(dir))
        .as("bytes allocated to the pool's files")
        .isGreaterThanOrEqualTo(size);
  }

  @Test
  void chunkBytesCopiedThroughTheSegmentFilesAreTheBytesTheMappingHolds() throws Exception {
    // 64 KiB chunks in 1 MiB segments: chunk 17 is the second chunk of the second segment.
    try (SharedPool pool = SharedPool.open(spec(4L << 20, 64 << 10))) {
      byte[] bytes = new byte[5000];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) (i * 13 + 5);
      }
      ByteBuffer src = ByteBuffer.wrap(bytes);
      pool.write(17, 100, src);
      assertThat(src.hasRemaining()).isFalse();

      ByteBuffer mapped = pool.chunkBuffer(17);
      for (int i = 0; i < bytes.length; i++) {
        assertThat(mapped.get(100 + i)).as("byte %d through the mapping", i).isEqualTo(bytes[i]);
      }
      assertThat(pool.chunkBuffer(16).getLong(0)).as("the chunk before").isZero();
      assertThat(pool.chunkBuffer(1).getLong(100)).as("chunk 1 of the first segment").isZero();

      mapped.put(64, (byte) 42); // as the sponge server writes a remote chunk
      ByteBuffer read = ByteBuffer.allocateDirect(100 + 5000 - 64);
      pool.read(17, 64, read);
      assertThat(read.hasRemaining()).isFalse();
      assertThat(read.get(0)).isEqualTo((byte) 42);
      for (int i = 0; i < bytes.length; i++) {
        assertThat(read.get(36 + i)).as("byte %d read back", i).isEqualTo(bytes[i]);
      }
    }
  }

  @Test
  void aCopyOutsideItsChunkIsRefusedNamingTheRange() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(2L << 20, 64 << 10))) {
      assertThatThrownBy(() -> pool.write(3, (64 << 10) - 10, ByteBuffer.allocate(11)))
          .isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessageContaining("bytes 65526 to 65537 of chunk 3")
          .hasMessageContaining("65536 bytes");
      assertThatThrownBy(() -> pool.read(32, 0, ByteBuffer.allocate(1)))
          .isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessageContaining("chunk : 32");
    }
  }

  @Test
  void anInterruptedCopyFailsAloneAndThePoolStaysUsable() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(2L << 20, 64 << 10));
        SharedPool other = SharedPool.open(spec(2L << 20, 64 << 10))) {
      pool.write(5, 0, ByteBuffer.wrap(new byte[] {1, 2, 3}));

      // An interrupted thread's copy closes the JVM's channel on the segment file for everyone.
      Thread.currentThread().interrupt();
      try {
        assertThatThrownBy(() -> pool.write(6, 0, ByteBuffer.wrap(new byte[] {9})))
            .isInstanceOf(InterruptedIOException.class)
            .hasMessageContaining("interrupted writing " + dir.resolve("p."));
      } finally {
        assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
      }

      ByteBuffer read = ByteBuffer.allocate(3);
      other.read(5, 0, read);
      assertThat(read.array()).containsExactly(1, 2, 3);
      pool.write(6, 0, ByteBuffer.wrap(new byte[] {7}));
      assertThat(pool.chunkBuffer(6).get(0)).isEqualTo((byte) 7);
    }
  }

  @Test
  void anInterruptedThreadStillFreesItsChunksAndKeepsTheInterrupt() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(2L << 20, 64 << 10))) {
      ChunkOwner owner = owner("attempt_interrupted");
      List<PoolChunk> chunks = pool.allocate(owner, 3);
      Thread.currentThread().interrupt();
      try {
        assertThat(pool.free(owner, chunks.subList(0, 2))).isEqualTo(2);
        assertThat(pool.freeAll(owner)).isEqualTo(1);
        assertThatThrownBy(() -> pool.allocate(owner, 1))
            .as("allocating is still interruptible")
            .isInstanceOf(InterruptedIOException.class);
      } finally {
        assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
      }
      assertThat(pool.freeChunks()).isEqualTo(pool.chunkCount());
    }
  }

  @Test
  void allocatesEveryChunkOnceThenReportsFull() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(2L << 20, 64 << 10))) {
      ChunkOwner owner = owner("t1");
      List<PoolChunk> got = pool.allocate(owner, 100);
      assertThat(got).hasSize(32);
      assertThat(got.stream().map(PoolChunk::index).collect(Collectors.toSet())).hasSize(32);
      assertThat(pool.freeChunks()).isZero();
      assertThat(pool.allocateOne(owner)).isNull();
      assertThat(pool.owners()).hasSize(32).allMatch(e -> e.owner().equals(owner));
      assertThat(pool.free(owner, got.subList(0, 10))).isEqualTo(10);
      assertThat(pool.freeChunks()).isEqualTo(10);
      assertThat(pool.stats().allocations()).isEqualTo(32);
    }
  }

  @Test
  void reallocationBumpsTheGenerationAndStaleHandlesCannotFree() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(1L << 20, 64 << 10))) {
      ChunkOwner owner = owner("t1");
      PoolChunk first = pool.allocateOne(owner);
      assertThat(pool.free(owner, List.of(first))).isEqualTo(1);
      PoolChunk again = pool.allocateOne(owner);
      assertThat(again.index()).as("most recently freed first").isEqualTo(first.index());
      assertThat(again.generation()).isEqualTo(first.generation() + 1);
      assertThat(pool.isCurrent(first)).isFalse();
      assertThat(pool.free(owner, List.of(first))).as("stale handle").isZero();
      assertThat(pool.free(owner("other"), List.of(again))).as("another task's chunk").isZero();
      assertThat(pool.isCurrent(again)).isTrue();
    }
  }

  @Test
  void chunkBytesAreSharedBetweenHandlesAndMappings() throws Exception {
    PoolSpec spec = spec(1L << 20, 64 << 10);
    try (SharedPool writer = SharedPool.open(spec)) {
      PoolChunk chunk = writer.allocateOne(owner("t"));
      ByteBuffer bytes = writer.chunkBuffer(chunk.index());
      bytes.putLong(0, 0x1122334455667788L);
      // A second, independent mapping of the same files (as another process would have).
      MappedPool mapped = PoolFiles.attach(spec.metadataFile(), spec);
      mapped.retain();
      try {
        assertThat(mapped.chunk(chunk.index()).getLong(0)).isEqualTo(0x1122334455667788L);
        assertThat(mapped.owners()).hasSize(1);
      } finally {
        mapped.release();
      }
    }
  }

  @Test
  void hostTableGivesStableIds() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(1L << 20, 64 << 10))) {
      int a = pool.hostId("node-a:7070");
      int b = pool.hostId("node-b:7070");
      assertThat(a).isPositive();
      assertThat(b).isNotEqualTo(a);
      assertThat(pool.hostId("node-a:7070")).isEqualTo(a);
      assertThat(pool.hostName(b)).isEqualTo("node-b:7070");
      assertThat(pool.hostName(0)).isNull();
    }
  }

  @Test
  void reclaimFreesOnlyChunksOfEndedLeases() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(1L << 20, 64 << 10))) {
      ChunkOwner live = owner("live");
      Lease ended = pool.leases().acquire();
      ended.close();
      ChunkOwner gone = ChunkOwner.of(ended, "gone");
      // A lease of another process that never existed here: no file, so no one holds it.
      ChunkOwner unknown = new ChunkOwner(0x0123456789abcdefL, 1, 0, 7);
      ChunkOwner remote = new ChunkOwner(0x0123456789abcdefL, 1, pool.hostId("elsewhere:1"), 9);
      List<PoolChunk> mine = pool.allocate(live, 3);
      pool.allocate(gone, 4);
      pool.allocate(unknown, 2);
      pool.allocate(remote, 1);
      assertThat(pool.reclaimOrphans())
          .as("the closed lease's and the unknown lease's; the remote owner is not ours to judge")
          .isEqualTo(6);
      Set<Integer> left = pool.owners().stream().map(OwnerEntry::chunk).collect(Collectors.toSet());
      assertThat(left).containsAll(mine.stream().map(PoolChunk::index).collect(Collectors.toSet()));
      assertThat(left).hasSize(4);
      assertThat(pool.stats().reclaimed()).isEqualTo(6);
    }
  }

  @Test
  void refusesAMissingPoolWhenCreationIsOff() {
    assertThatThrownBy(() -> SharedPool.open(spec(1L << 20, 64 << 10).withCreate(false)))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("p.meta")
        .hasMessageContaining("sponge.pool.create=false");
  }

  @Test
  void refusesAFileThatIsNotAPoolAndLeavesItAlone() throws Exception {
    byte[] garbage = new byte[8192];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = (byte) (i * 7);
    }
    Path meta = dir.resolve("p.meta");
    Files.write(meta, garbage);
    assertThatThrownBy(() -> SharedPool.open(spec(1L << 20, 64 << 10)))
        .isInstanceOf(PoolFormatException.class)
        .hasMessageContaining(meta.toString())
        .hasMessageContaining("is not a sponge pool")
        .hasMessageContaining("refusing to use or reformat it");
    assertThat(Files.readAllBytes(meta)).as("never reformatted").isEqualTo(garbage);
  }

  @Test
  void refusesATruncatedFile() throws Exception {
    Files.write(dir.resolve("p.meta"), new byte[100]);
    assertThatThrownBy(() -> SharedPool.open(spec(1L << 20, 64 << 10)))
        .isInstanceOf(PoolFormatException.class)
        .hasMessageContaining("100 bytes, shorter than a pool header");
  }

  @Test
  void refusesAnotherLayoutVersionAndByteOrder() throws Exception {
    PoolSpec spec = spec(1L << 20, 64 << 10);
    SharedPool.open(spec).close();
    Path meta = spec.metadataFile();
    byte[] original = Files.readAllBytes(meta);

    byte[] version = original.clone();
    ByteBuffer.wrap(version).order(ByteOrder.nativeOrder()).putInt(PoolLayout.OFF_VERSION, 99);
    Files.write(meta, version);
    assertThatThrownBy(() -> SharedPool.open(spec))
        .isInstanceOf(PoolFormatException.class)
        .hasMessageContaining("layout version 99 but this build reads version 2");
    assertThat(Files.readAllBytes(meta)).isEqualTo(version);

    byte[] pidLayout = original.clone();
    ByteBuffer.wrap(pidLayout).order(ByteOrder.nativeOrder()).putInt(PoolLayout.OFF_VERSION, 1);
    Files.write(meta, pidLayout);
    assertThatThrownBy(() -> SharedPool.open(spec))
        .isInstanceOf(PoolFormatException.class)
        .hasMessageContaining(meta.toString())
        .hasMessageContaining("layout version 1, which named chunk owners by pid")
        .hasMessageContaining("remove the pool files");
    assertThat(Files.readAllBytes(meta)).isEqualTo(pidLayout);

    byte[] swapped = original.clone();
    ByteBuffer.wrap(swapped)
        .order(ByteOrder.nativeOrder())
        .putLong(PoolLayout.OFF_MAGIC, Long.reverseBytes(PoolLayout.MAGIC));
    Files.write(meta, swapped);
    assertThatThrownBy(() -> SharedPool.open(spec))
        .isInstanceOf(PoolFormatException.class)
        .hasMessageContaining("other byte order");
  }

  @Test
  void refusesAPoolWithAMissingSegment() throws Exception {
    PoolSpec spec = spec(2L << 20, 64 << 10);
    long id;
    try (SharedPool pool = SharedPool.open(spec)) {
      id = pool.poolId();
    }
    Files.delete(PoolFiles.segmentFile(dir, "p", id, 1));
    assertThatThrownBy(() -> SharedPool.open(spec))
        .isInstanceOf(PoolFormatException.class)
        .hasMessageContaining("which is missing");
  }

  @Test
  void handlesAreIndependentAndCloseIsIdempotent() throws Exception {
    PoolSpec spec = spec(1L << 20, 64 << 10);
    SharedPool a = SharedPool.open(spec);
    SharedPool b = SharedPool.open(spec);
    a.close();
    a.close();
    assertThat(b.allocateOne(owner("t"))).isNotNull();
    assertThatThrownBy(() -> a.allocateOne(owner("t")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    b.close();
  }

  @Test
  void ownersSnapshotListsExactlyTheAllocatedChunks() throws Exception {
    try (SharedPool pool = SharedPool.open(spec(1L << 20, 64 << 10))) {
      List<PoolChunk> all = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        all.addAll(pool.allocate(owner("t" + t), 3));
      }
      Set<Integer> expected = new HashSet<>();
      all.forEach(c -> expected.add(c.index()));
      assertThat(pool.owners().stream().map(OwnerEntry::chunk).collect(Collectors.toSet()))
          .isEqualTo(expected);
      assertThat(pool.freeAll(owner("t2"))).isEqualTo(3);
      assertThat(pool.owners()).hasSize(9);
    }
  }
}
