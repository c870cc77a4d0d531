package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.pool.PoolChild;
import org.spongefiles.core.testing.ChildJvm;
import org.spongefiles.core.testing.RandomBytes;
import org.spongefiles.core.testing.SpongeTestConf;
import org.spongefiles.core.testing.TestDirs;
import org.spongefiles.core.tier.AllTiersFullException;
import org.spongefiles.core.tier.TierKind;

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
    conf.set("sponge.disk.limit", Long.toString((long) diskChunks * CHUNK));
    if (dfs) {
      conf.set("sponge.dfs.dir", dfsDir.toUri().toString());
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
      assertThat(filesUnder(diskDir)).isEmpty();
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
      blocker.delete(); // the pool has room again for the next chunks
      byte[] part2 = RandomBytes.array(6, 3 * CHUNK);
      out.write(part2);
      out.close();

      List<TierKind> tiers =
          file.chunks().stream().map(ChunkInfo::tier).collect(Collectors.toList());
      // Chunks 0 and 1 were sealed while the pool was full. Chunk 2 is sealed after the delete
      // and is written behind, so it may find the freed pool chunks first; chunks 3 to 5 are
      // filled in place in the pool if it has room when they start.
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
      assertThat(filesUnder(diskDir)).isEmpty();
    }
  }

  @Test
  void aPoolLockHeldByAStuckProcessSendsChunksToTheNextTierUntilItDies() throws Exception {
    Configuration conf = conf(16, 100, false);
    conf.set("sponge.pool.lock.timeout", "100ms");
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

  static List<Path> filesUnder(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).collect(Collectors.toList());
    }
  }
}
