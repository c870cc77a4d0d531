package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestResources;

/** Every size that matters, through every tier, read back byte for byte several times. */
class SpongeFileRoundTripTest {
  private static final int CHUNK = 1 << 20;

  @RegisterExtension final TestResources resources = new TestResources();
  private final Path poolDir = resources.shmDir("rt-pool");
  private final Path diskDir = resources.shmDir("rt-disk");
  private final Path dfsDir = resources.shmDir("rt-dfs");

  static Stream<Arguments> tiersAndSizes() {
    List<Arguments> cases = new ArrayList<>();
    long[] sizes = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3L * CHUNK + 12345};
    for (String tiers : new String[] {"pool", "disk", "dfs", "pool,disk,dfs"}) {
      for (long size : sizes) {
        cases.add(Arguments.of(tiers, size));
      }
    }
    for (String tiers : new String[] {"pool", "disk", "dfs"}) {
      cases.add(Arguments.of(tiers, 300L << 20));
    }
    return cases.stream();
  }

  private Configuration conf(String tiers, long size) {
    // The mixed chain gets a pool of 2 chunks and a disk limit of 1, so large files use all three.
    boolean mixed = tiers.contains(",");
    Configuration conf =
        SpongeTestConf.of(
            poolDir, diskDir, mixed ? 2L * CHUNK : Math.max(size, CHUNK) + CHUNK, CHUNK);
    conf.set(SpongeOptions.TIERS.key(), tiers);
    SpongeOptions.DFS_DIR.set(conf, dfsDir.toUri().toString());
    if (mixed) {
      SpongeOptions.DISK_LIMIT.set(conf, (long) CHUNK);
    }
    return conf;
  }

  @ParameterizedTest(name = "{0}: {1} bytes")
  @MethodSource("tiersAndSizes")
  void readsBackEveryByteRepeatedly(String tiers, long size) throws Exception {
    long seed = size * 31 + tiers.hashCode();
    try (SpongeTask task = SpongeTask.open(conf(tiers, size), "attempt_rt_" + Math.abs(seed))) {
      SpongeFile file = task.create("round-trip");
      byte[] written;
      try (OutputStream out = file.output()) {
        written = RandomBytes.write(out, seed, size);
      }
      assertThat(file.length()).isEqualTo(size);
      assertThat(file.state()).isEqualTo(SpongeFileState.CLOSED);

      for (int pass = 0; pass < 2; pass++) {
        try (SpongeInputStream in = file.input(pass == 0 ? CHUNK : 48 << 10)) {
          RandomBytes.Digest read = RandomBytes.read(in, seed + pass);
          assertThat(read.bytes).isEqualTo(size);
          assertThat(read.sha256).as("pass %d", pass).isEqualTo(written);
        }
      }

      long expectedChunks = (size + CHUNK - 1) / CHUNK;
      assertThat(file.chunks()).hasSize((int) expectedChunks);
      if (!tiers.contains(",")) {
        TierKind only = TierKind.fromLabel(tiers);
        assertThat(file.chunks()).allMatch(c -> c.tier() == only);
        assertThat(task.stats().bytesWritten(only)).isEqualTo(size);
        assertThat(task.stats().chunksWritten(only)).isEqualTo(expectedChunks);
        assertThat(task.stats().bytesRead(only)).isEqualTo(2 * size);
      } else if (size > 3L * CHUNK) {
        assertThat(file.chunks())
            .extracting(ChunkInfo::tier)
            .containsExactly(TierKind.POOL, TierKind.POOL, TierKind.DISK, TierKind.DFS);
      }
      if (size <= 4L * CHUNK) {
        checkSeeksAndPositionedReads(file, seed, (int) size);
      }
      file.delete();
      assertThat(file.state()).isEqualTo(SpongeFileState.DELETED);
    }
  }

  /** Seeks and positioned reads anywhere return the same bytes as the written stream. */
  private static void checkSeeksAndPositionedReads(SpongeFile file, long seed, int size)
      throws Exception {
    byte[] expected = new byte[size];
    RandomBytes.write(new ArrayOutputStream(expected), seed, size);
    SplittableRandom random = new SplittableRandom(seed);
    try (SpongeInputStream in = file.input(32 << 10);
        FSDataInputStream hadoop = new FSDataInputStream(file.input())) {
      for (int i = 0; i < 200 && size > 0; i++) {
        int at = random.nextInt(size);
        int len = Math.min(size - at, 1 + random.nextInt(3 * CHUNK / 2));
        byte[] got = new byte[len];
        in.seek(at);
        int n = in.readNBytes(got, 0, len);
        assertThat(n).isEqualTo(len);
        assertThat(in.getPos()).isEqualTo(at + len);
        assertRange(got, expected, at, "seek+read");

        byte[] positioned = new byte[len];
        long before = hadoop.getPos();
        hadoop.readFully(at, positioned);
        assertThat(hadoop.getPos()).as("positioned reads keep the position").isEqualTo(before);
        assertRange(positioned, expected, at, "positioned read");
      }
      in.seek(size);
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  private static void assertRange(byte[] got, byte[] expected, int at, String what) {
    for (int i = 0; i < got.length; i++) {
      if (got[i] != expected[at + i]) {
        throw new AssertionError(what + ": byte " + (at + i) + " differs");
      }
    }
  }

  /** Collects a stream into a preallocated array. */
  private static final class ArrayOutputStream extends OutputStream {
    private final byte[] target;
    private int at;

    ArrayOutputStream(byte[] target) {
      this.target = target;
    }

    @Override
    public void write(int b) {
      target[at++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      System.arraycopy(b, off, target, at, len);
      at += len;
    }
  }
}
