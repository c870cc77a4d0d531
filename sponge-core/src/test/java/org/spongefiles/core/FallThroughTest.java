package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.pool.PoolChild;
import org.spongefiles.core.tier.AllTiersFullException;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/** Chunks fall from a full tier to the next, disk chunks append, and stats say where bytes went. */
class FallThroughTest {
  private static final int CHUNK = 64 << 10;

  private Path poolDir;
  private Path diskDir;
  private Path dfsDir;

  @BeforeEach
  void setUp() {
    poolDir = TestDirs.newShmDir("ft-pool");
    diskDir = TestDirs.newShmDir("ft-disk");
    dfsDir = TestDirs.newShmDir("ft-dfs");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
    TestDirs.deleteTree(dfsDir);
  }

  private Configuration conf(int poolChunks, int diskChunks, boolean dfs) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, (long) poolChunks * CHUNK, CHUNK);
    SpongeOptions.DISK_LIMIT.set(conf, (long) diskChunks * CHUNK);
    // One I/O thread stores the chunks in file order, so the tier of each chunk is known; with
    // more,
    // the chunks around a tier's last free place may take it in either order.
    SpongeOptions.IO_THREADS.set(conf, 1);
    if (dfs) {
      SpongeOptions.DFS_DIR.set(conf, dfsDir.toUri().toString());
    }
    return conf;
  }

  @Test
  void aTinyPoolFillsMidFileThenDiskThenDfs() throws Exception {
    long size = 20L * CHUNK + 777;
    try (SpongeTask task = SpongeTask.open(conf(4, 6, true), "attempt_ft_1")) {
      SpongeFile file = task.create("spill");
      byte[] digest;
      try (OutputStream out = file.output()) {
        digest = RandomBytes.write(out, 11, size);
      }
      List<TierKind> tiers =
          file.chunks().stream().map(ChunkInfo::tier).collect(Collectors.toList());
      assertThat(tiers.subList(0, 4)).containsOnly(TierKind.POOL);
      assertThat(tiers.subList(4, 10)).containsOnly(TierKind.DISK);
      assertThat(tiers.subList(10, 21)).containsOnly(TierKind.DFS);

      // Six disk chunks are one contiguous backing file, not six files.
      assertThat(filesUnder(diskDir)).hasSize(1);
      assertThat(Files.size(filesUnder(diskDir).get(0))).isEqualTo(6L * CHUNK);
      assertThat(filesUnder(dfsDir).stream().filter(p -> !p.toString().endsWith(".crc")))
          .hasSize(1);

      SpongeStatsAssert.wrote(task, TierKind.POOL, 4L * CHUNK, 4);
      SpongeStatsAssert.wrote(task, TierKind.DISK, 6L * CHUNK, 6);
      SpongeStatsAssert.wrote(task, TierKind.DFS, 10L * CHUNK + 777, 11);
      try (SpongeInputStream in = file.input()) {
        assertThat(RandomBytes.read(in, 3).sha256).isEqualTo(digest);
      }
      assertThat(task.stats().bytesRead(TierKind.DISK)).isEqualTo(6L * CHUNK);
      assertThat(task.stats().chunksRead(TierKind.DFS)).isEqualTo(11);

      file.delete();
      assertThat(task.tiers().pool().pool().freeChunks()).isEqualTo(4);
    }
    assertThat(filesUnder(diskDir)).as("the task's disk files go with the task").isEmpty();
  }

  @Test
  void theTierOrderDecidesPlacementEvenWhenThePoolComesAfterDisk() throws Exception {
    Configuration conf = conf(4, 3, false);
    conf.set(SpongeOptions.TIERS.key(), "disk,pool");
    long size = 5L * CHUNK + 100;
    try (SpongeTask task = SpongeTask.open(conf, "attempt_ft_order")) {
      SpongeFile file = task.create("disk-first");
      byte[] digest;
      try (OutputStream out = file.output()) {
        digest = RandomBytes.write(out, 21, size);
      }
      assertThat(file.chunks())
          .extracting(ChunkInfo::tier)
          .containsExactly(
              TierKind.DISK,
              TierKind.DISK,
              TierKind.DISK,
              TierKind.POOL,
              TierKind.POOL,
              TierKind.POOL);
      SpongeStatsAssert.wrote(task, TierKind.DISK, 3L * CHUNK, 3);
      SpongeStatsAssert.wrote(task, TierKind.POOL, 2L * CHUNK + 100, 3);
      assertThat(task.tiers().pool().pool().freeChunks()).isEqualTo(1);
      try (SpongeInputStream in = file.input()) {
        RandomBytes.Digest read = RandomBytes.read(in, 5);
        assertThat(read.bytes).isEqualTo(size);
        assertThat(read.sha256).isEqualTo(digest);
      }
      file.delete();
      assertThat(task.tiers().pool().pool().freeChunks()).isEqualTo(4);
    }
  }

  @Test
  void diskChunksAppendAcrossPoolGapsAndPoolSpaceIsReused() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf(2, 100, false), "attempt_ft_2")) {
      SpongeFile blocker = task.create("blocker");
      try (OutputStream out = blocker.output()) {
        RandomBytes.write(out, 1, 2L * CHUNK);
      }
      SpongeFile file = task.create("spill");
      OutputStream out = file.output();
      byte[] part1 = RandomBytes.array(5, 3 * CHUNK);
      out.write(part1);
      // Chunks 0 and 1 are sealed and written behind; once placed, free the pool.
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> file.chunks().size() == 2);
      blocker.delete(); // the pool has room again for the next chunks
      byte[] part2 = RandomBytes.array(6, 3 * CHUNK);
      out.write(part2);
      out.close();

      List<TierKind> tiers =
          file.chunks().stream().map(ChunkInfo::tier).collect(Collectors.toList());
      // Chunks 0 and 1 were placed while the pool was full. Chunk 2 is sealed after the delete
      // and written behind while chunk 3 reserves a pool chunk in place, so which two of chunks
      // 2 to 4 get the two freed pool chunks depends on timing; the rest go to disk.
      assertThat(tiers).hasSize(6);
      assertThat(tiers.subList(0, 2)).containsOnly(TierKind.DISK);
      assertThat(tiers).contains(TierKind.POOL);
      long diskChunks = tiers.stream().filter(t -> t == TierKind.DISK).count();
      assertThat(filesUnder(diskDir)).hasSize(1);
      assertThat(Files.size(filesUnder(diskDir).get(0))).isEqualTo(diskChunks * CHUNK);

      byte[] all = new byte[6 * CHUNK];
      try (SpongeInputStream in = file.input()) {
        assertThat(in.readNBytes(all, 0, all.length)).isEqualTo(all.length);
        assertThat(in.read()).isEqualTo(-1);
      }
      assertThat(java.util.Arrays.copyOfRange(all, 0, 3 * CHUNK)).isEqualTo(part1);
      assertThat(java.util.Arrays.copyOfRange(all, 3 * CHUNK, 6 * CHUNK)).isEqualTo(part2);
    }
  }

  @Test
  void whenEveryTierIsFullTheErrorNamesEachTierAndNothingLeaks() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf(2, 1, false), "attempt_ft_3")) {
      SpongeFile file = task.create("too-big");
      OutputStream out = file.output();
      assertThatThrownBy(
              () -> {
                out.write(RandomBytes.array(1, 5 * CHUNK));
                out.close();
              })
          .isInstanceOf(IOException.class)
          .hasMessageContaining("too-big")
          .hasRootCauseInstanceOf(AllTiersFullException.class)
          .rootCause()
          .hasMessageContaining("pool full (0 of 2 chunks free")
          .hasMessageContaining("disk full (")
          .hasMessageContaining("task used 65536 of its 65536 byte limit");
      assertThat(file.state()).isIn(SpongeFileState.WRITING, SpongeFileState.FAILED);
      assertThatThrownBy(file::input).isInstanceOf(SpongeFileStateException.class);
      file.delete();
      assertThat(task.tiers().pool().pool().freeChunks()).isEqualTo(2);
    }
    assertThat(filesUnder(diskDir)).isEmpty();
  }

  @Test
  void aPoolLockHeldByAStuckProcessSendsChunksToTheNextTierUntilItDies() throws Exception {
    Configuration conf = conf(16, 100, false);
    SpongeOptions.POOL_LOCK_TIMEOUT.set(conf, Duration.ofMillis(100));
    Path stderr = Files.createTempFile("holder", ".err");
    try (SpongeTask task = SpongeTask.open(conf, "attempt_ft_4");
        ChildJvm holder =
            ChildJvm.start(PoolChild.class, stderr, "hold", poolDir.toString(), "test-pool", "2")) {
      holder.awaitLine("READY", 60, TimeUnit.SECONDS);
      SpongeFile stuck = task.create("while-stuck");
      try (OutputStream out = stuck.output()) {
        out.write(RandomBytes.array(3, 2 * CHUNK));
      }
      assertThat(stuck.chunks()).extracting(ChunkInfo::tier).containsOnly(TierKind.DISK);

      holder.kill();
      SpongeFile after = task.create("after");
      try (OutputStream out = after.output()) {
        out.write(RandomBytes.array(4, CHUNK));
      }
      assertThat(after.chunks()).extracting(ChunkInfo::tier).containsExactly(TierKind.POOL);
    } finally {
      Files.deleteIfExists(stderr);
    }
  }

  @Test
  void aDeletedFilesBackingFileIsReusedWithinTheRecycleBudget() throws Exception {
    Configuration conf = conf(1, 100, false);
    conf.set(SpongeOptions.TIERS.key(), "disk");
    SpongeOptions.DISK_RECYCLE_BYTES.set(conf, 3L * CHUNK);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_ft_5")) {
      SpongeFile big = task.create("big");
      try (OutputStream out = big.output()) {
        out.write(RandomBytes.array(1, 3 * CHUNK));
      }
      Path backing = filesUnder(diskDir).get(0);
      big.delete();
      assertThat(filesUnder(diskDir)).containsExactly(backing);

      SpongeFile small = task.create("small");
      byte[] data = RandomBytes.array(2, CHUNK + 5);
      try (OutputStream out = small.output()) {
        out.write(data);
      }
      assertThat(filesUnder(diskDir)).as("written into the kept file").containsExactly(backing);
      assertThat(small.chunks().get(0).location()).contains(backing.toString());
      try (SpongeInputStream in = small.input()) {
        assertThat(in.readAllBytes()).as("the stale tail is never read").isEqualTo(data);
      }

      SpongeFile second = task.create("second");
      try (OutputStream out = second.output()) {
        out.write(data);
      }
      assertThat(filesUnder(diskDir)).as("nothing kept to reuse: a new file").hasSize(2);
      small.delete();
      second.delete();
      assertThat(filesUnder(diskDir))
          .as("two files of 3 and 2 chunks exceed the 3-chunk budget: one is deleted")
          .hasSize(1);
    }
    assertThat(filesUnder(diskDir)).isEmpty();
  }

  static List<Path> filesUnder(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }
}
