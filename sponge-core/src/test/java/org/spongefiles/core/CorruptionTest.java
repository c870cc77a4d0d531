package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.OwnerEntry;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/** A flipped byte anywhere is caught by CRC32C and reported with the file, chunk and tier. */
class CorruptionTest {
  private static final int CHUNK = 64 << 10;

  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void setUp() {
    poolDir = TestDirs.newShmDir("cr-pool");
    diskDir = TestDirs.newShmDir("cr-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  @Test
  void aFlippedByteInAPooledChunkFailsTheRead() throws Exception {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 8L * CHUNK, CHUNK);
    SpongeOptions.POOL_CHECKSUM.set(conf, true);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_cr_1");
        SharedPool pool = SharedPool.open(SpongeSettings.poolSpec(ConfigValues.reading(conf)))) {
      SpongeFile file = task.create("pooled");
      try (OutputStream out = file.output()) {
        out.write(RandomBytes.array(1, 3 * CHUNK));
      }
      assertThat(file.chunks()).allMatch(c -> c.tier() == TierKind.POOL && c.checksummed());
      OwnerEntry second = pool.owners().stream().filter(e -> e.chunk() == 1).findFirst().get();
      ByteBuffer bytes = pool.chunkBuffer(second.chunk());
      bytes.put(5000, (byte) (bytes.get(5000) ^ 0x10));

      try (SpongeInputStream in = file.input()) {
        assertThat(in.readNBytes(CHUNK)).hasSize(CHUNK); // chunk 0 is intact
        assertThatThrownBy(in::read)
            .isInstanceOf(ChecksumException.class)
            .hasMessageContaining("SpongeFile 'pooled' of task attempt_cr_1")
            .hasMessageContaining("chunk 1 (pool tier")
            .hasMessageContaining("block 0 (chunk bytes 0 to 16383)");
      }
      try (SpongeInputStream in = file.input()) {
        assertThatThrownBy(() -> in.readFully(CHUNK + 4000, new byte[2000], 0, 2000))
            .as("positioned reads verify too")
            .isInstanceOf(ChecksumException.class);
      }
    }
  }

  @Test
  void aFlippedByteInADiskChunkFailsTheRead() throws Exception {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 8L * CHUNK, CHUNK);
    conf.set(SpongeOptions.TIERS.key(), "disk");
    // One I/O thread appends the chunks in file order: chunk 2 is the backing file's third chunk.
    SpongeOptions.IO_THREADS.set(conf, 1);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_cr_2")) {
      SpongeFile file = task.create("on-disk");
      try (OutputStream out = file.output()) {
        out.write(RandomBytes.array(2, 3 * CHUNK));
      }
      Path backing = FallThroughTest.filesUnder(diskDir).get(0);
      try (RandomAccessFile raw = new RandomAccessFile(backing.toFile(), "rw")) {
        long at = 2L * CHUNK + 40_000;
        raw.seek(at);
        int b = raw.read();
        raw.seek(at);
        raw.write(b ^ 0x01);
      }
      try (SpongeInputStream in = file.input()) {
        assertThat(in.readNBytes(2 * CHUNK)).hasSize(2 * CHUNK);
        assertThatThrownBy(() -> in.readNBytes(CHUNK))
            .isInstanceOf(ChecksumException.class)
            .hasMessageContaining("SpongeFile 'on-disk' of task attempt_cr_2")
            .hasMessageContaining("chunk 2 (disk tier, disk chunk at byte 131072 of " + backing)
            .hasMessageContaining("block 2 (chunk bytes 32768 to 49151)")
            .extracting(e -> ((ChecksumException) e).getPos())
            .isEqualTo(2L * CHUNK + 32768);
      }
    }
  }

  @Test
  void poolChecksumsAreOffByDefault() throws Exception {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 8L * CHUNK, CHUNK);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_cr_3")) {
      SpongeFile file = task.create("plain");
      try (OutputStream out = file.output()) {
        out.write(RandomBytes.array(1, CHUNK));
      }
      assertThat(file.chunks()).allMatch(c -> !c.checksummed());
    }
  }
}
