package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/** Asynchronous writes and read-ahead stay within their memory bounds and change no byte. */
class WriteBehindTest {
  private static final int CHUNK = 64 << 10;

  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void setUp() {
    poolDir = TestDirs.newShmDir("wb-pool");
    diskDir = TestDirs.newShmDir("wb-disk");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  private Configuration conf(boolean prefetch) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 4L * CHUNK, CHUNK);
    conf.set(SpongeOptions.TIERS.key(), "disk");
    SpongeOptions.WRITE_BUFFERS.set(conf, 2);
    SpongeOptions.READ_PREFETCH.set(conf, prefetch);
    return conf;
  }

  @Test
  void manyFilesWrittenAtOnceNeverUseMoreThanTheConfiguredBuffers() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf(true), "attempt_wb_1")) {
      SpongeFile[] files = new SpongeFile[5];
      OutputStream[] outs = new OutputStream[5];
      for (int i = 0; i < files.length; i++) {
        files[i] = task.create("f" + i);
        outs[i] = files[i].output();
      }
      byte[] block = RandomBytes.array(1, CHUNK / 2);
      for (int round = 0; round < 40; round++) {
        for (OutputStream out : outs) {
          out.write(block);
        }
      }
      for (OutputStream out : outs) {
        out.close();
      }
      assertThat(task.peakChunksInFlight()).isEqualTo(2);
      assertThat(task.peakWriteBuffersLive())
          .as("2 in flight + 5 being filled")
          .isLessThanOrEqualTo(7);
      assertThat(task.stats().chunksWritten(TierKind.DISK)).isEqualTo(5 * 20);
      for (SpongeFile file : files) {
        assertThat(file.length()).isEqualTo(20L * CHUNK);
        try (SpongeInputStream in = file.input()) {
          for (int i = 0; i < 40; i++) {
            assertThat(in.readNBytes(block.length)).isEqualTo(block);
          }
          assertThat(in.read()).isEqualTo(-1);
        }
      }
    }
  }

  @Test
  void aFilesDiskChunksAreAppendedInFileOrderWhateverTheThreads() throws Exception {
    Configuration conf = conf(true);
    SpongeOptions.IO_THREADS.set(conf, 4);
    SpongeOptions.WRITE_BUFFERS.set(conf, 8);
    SpongeOptions.DISK_LIMIT.set(conf, 64L * CHUNK);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_wb_3")) {
      SpongeFile file = task.create("in-order");
      byte[] written;
      try (OutputStream out = file.output()) {
        written = RandomBytes.write(out, 5, 40L * CHUNK);
      }
      List<ChunkInfo> chunks = file.chunks();
      assertThat(chunks).hasSize(40);
      for (ChunkInfo chunk : chunks) {
        Matcher at = Pattern.compile("at byte (\\d+) of").matcher(chunk.location());
        assertThat(at.find()).as(chunk.location()).isTrue();
        assertThat(Long.parseLong(at.group(1)))
            .as("chunk %d's place in the backing file", chunk.index())
            .isEqualTo((long) chunk.index() * CHUNK);
      }
      try (SpongeInputStream in = file.input()) {
        assertThat(RandomBytes.read(in, 1).sha256).isEqualTo(written);
      }
    }
  }

  @Test
  void readAheadAndPlainReadsReturnTheSameBytesAndBlockedTimeIsCounted() throws Exception {
    byte[] digestWithPrefetch;
    byte[] written;
    for (boolean prefetch : new boolean[] {true, false}) {
      try (SpongeTask task = SpongeTask.open(conf(prefetch), "attempt_wb_2_" + prefetch)) {
        SpongeFile file = task.create("read-ahead");
        try (OutputStream out = file.output()) {
          written = RandomBytes.write(out, 77, 40L * CHUNK + 99);
        }
        try (SpongeInputStream in = file.input(16 << 10)) {
          digestWithPrefetch = RandomBytes.read(in, 1).sha256;
        }
        assertThat(digestWithPrefetch).isEqualTo(written);
        assertThat(task.stats().blockedWriteNanos()).isPositive();
        assertThat(task.stats().blockedReadNanos()).isPositive();
        assertThat(task.stats().bytesRead(TierKind.DISK)).isEqualTo(40L * CHUNK + 99);
        assertThat(task.stats().chunksRead(TierKind.DISK)).isEqualTo(41);
      }
    }
  }
}
