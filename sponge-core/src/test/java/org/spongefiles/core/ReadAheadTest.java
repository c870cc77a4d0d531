package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestResources;

/**
 * A reader that has finished its window asks for the window after the next before it waits for the
 * next: on a link or disk slower than the reader, two windows are on their way while it waits.
 * Chunks on the DFS tier, through a local file system whose reads of the second chunk wait until
 * the third chunk's read has begun (or 10 s).
 */
class ReadAheadTest {
  private static final int CHUNK = 1 << 20;

  @RegisterExtension final TestResources resources = new TestResources();
  private final Path poolDir = resources.shmDir("ra-pool");
  private final Path diskDir = resources.shmDir("ra-disk");
  private final Path dfsDir = resources.shmDir("ra-dfs");

  @AfterEach
  void tearDown() {
    GatedFileSystem.gate = null;
  }

  @Test
  void aReaderWaitingForItsNextWindowHasTheOneAfterOnItsWayToo() throws Exception {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 2L * CHUNK, CHUNK);
    conf.set(SpongeOptions.TIERS.key(), "dfs");
    SpongeOptions.DFS_DIR.set(conf, "gated://" + dfsDir.toUri().getPath());
    conf.set("fs.gated.impl", GatedFileSystem.class.getName());
    conf.setBoolean("fs.gated.impl.disable.cache", true);
    SpongeOptions.IO_THREADS.set(conf, 2);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_ra_1")) {
      SpongeFile file = task.create("read-ahead");
      byte[] written;
      try (OutputStream out = file.output()) {
        written = RandomBytes.write(out, 2026, 4L * CHUNK);
      }
      Gate gate = new Gate(CHUNK, 2L * CHUNK);
      GatedFileSystem.gate = gate;

      try (SpongeInputStream in = file.input()) {
        assertThat(RandomBytes.read(in, 2026).sha256).isEqualTo(written);
      }

      assertThat(gate.reads).as("reads of the second chunk").isEqualTo(1);
      assertThat(gate.afterNextAskedFirst)
          .as("the third chunk was asked for while the second was still on its way")
          .isTrue();
    }
  }

  /** Holds the read at one position until a read at another has begun. */
  static final class Gate {
    final long held;
    final long awaited;
    final CountDownLatch awaitedBegun = new CountDownLatch(1);
    volatile int reads;
    volatile boolean afterNextAskedFirst;

    Gate(long held, long awaited) {
      this.held = held;
      this.awaited = awaited;
    }

    void before(long position) throws IOException {
      if (position == awaited) {
        awaitedBegun.countDown();
      }
      if (position == held) {
        reads++;
        try {
          afterNextAskedFirst = awaitedBegun.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted at the gate", e);
        }
      }
    }
  }

  /** The local file system under the scheme {@code gated}, its positioned reads passing a gate. */
  public static final class GatedFileSystem extends RawLocalFileSystem {
    static volatile Gate gate;

    @Override
    public URI getUri() {
      return URI.create("gated:///");
    }

    @Override
    public String getScheme() {
      return "gated";
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path path, int bufferSize)
        throws IOException {
      FSDataInputStream local = super.open(path, bufferSize);
      return new FSDataInputStream(
          new FSInputStream() {
            @Override
            public void readFully(long position, byte[] buffer, int offset, int length)
                throws IOException {
              Gate current = gate;
              if (current != null) {
                current.before(position);
              }
              local.readFully(position, buffer, offset, length);
            }

            @Override
            public int read(long position, byte[] buffer, int offset, int length)
                throws IOException {
              readFully(position, buffer, offset, length);
              return length;
            }

            @Override
            public void seek(long pos) throws IOException {
              local.seek(pos);
            }

            @Override
            public long getPos() throws IOException {
              return local.getPos();
            }

            @Override
            public boolean seekToNewSource(long targetPos) {
              return false;
            }

            @Override
            public int read() throws IOException {
              return local.read();
            }

            @Override
            public void close() throws IOException {
              local.close();
            }
          });
    }
  }
}
