package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;

/**
 * Interrupts and concurrent callers (Hadoop cancels tasks by interrupting them; counters threads
 * ask for lengths while files are written) neither lose bytes, nor leave files half-written, nor
 * free chunks an I/O thread still writes into.
 */
class InterruptionTest {
  private static final int CHUNK = 64 << 10;

  private Path poolDir;
  private Path diskDir;

  @BeforeEach
  void setUp() {
    poolDir = TestDirs.newShmDir("intr-pool");
    diskDir = TestDirs.newShmDir("intr-disk");
  }

  @AfterEach
  void tearDown() {
    Thread.interrupted();
    TestDirs.deleteTree(poolDir);
    TestDirs.deleteTree(diskDir);
  }

  private Configuration conf(String tiers) {
    Configuration conf = SpongeTestConf.of(poolDir, diskDir, 8L * CHUNK, CHUNK);
    conf.set(SpongeOptions.TIERS.key(), tiers);
    SpongeOptions.IO_THREADS.set(conf, 1);
    SpongeOptions.WRITE_BUFFERS.set(conf, 1);
    SpongeOptions.READ_PREFETCH.set(conf, false);
    return conf;
  }

  /** Occupies the task's only I/O thread until the returned latch is counted down. */
  private static CountDownLatch blockIo(SpongeTask task) throws InterruptedException {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(1);
    task.io()
        .execute(
            () -> {
              running.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    return release;
  }

  @Test
  void anInterruptedWriterFailsTheFileInsteadOfDroppingAChunk() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf("disk"), "attempt_intr_1")) {
      CountDownLatch release = blockIo(task);
      SpongeFile file = task.create("interrupted");
      OutputStream out = file.output();
      byte[] chunk = RandomBytes.array(1, CHUNK);
      out.write(chunk);
      out.write(
          chunk); // seals chunk 0: queued behind the blocked I/O thread, the 1 buffer in flight
      Thread.currentThread().interrupt();
      assertThatThrownBy(() -> out.write(chunk)) // sealing chunk 1 must wait for a buffer
          .isInstanceOf(InterruptedIOException.class);
      assertThat(Thread.interrupted()).isTrue();

      assertThatThrownBy(() -> out.write(chunk))
          .as("the file failed: no later write may pretend to succeed")
          .isInstanceOf(IOException.class);
      release.countDown();
      assertThatThrownBy(out::close).isInstanceOf(IOException.class);
      assertThat(file.state()).isEqualTo(SpongeFileState.FAILED);
      assertThatThrownBy(file::input).isInstanceOf(SpongeFileStateException.class);
      file.delete();

      SpongeFile next = task.create("after");
      byte[] expected;
      try (OutputStream again = next.output()) {
        expected = RandomBytes.write(again, 2, 5L * CHUNK + 7);
      }
      try (SpongeInputStream in = next.input()) {
        assertThat(RandomBytes.read(in, 2).sha256).isEqualTo(expected);
      }
    }
  }

  @Test
  void deleteOnAnInterruptedThreadWaitsForChunksStillBeingWritten() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf("disk"), "attempt_intr_2")) {
      CountDownLatch release = blockIo(task);
      SpongeFile file = task.create("deleted-while-writing");
      OutputStream out = file.output();
      out.write(RandomBytes.array(3, CHUNK + 1)); // chunk 0 is queued behind the blocked thread
      AtomicBoolean deleted = new AtomicBoolean();
      Thread deleter =
          new Thread(
              () -> {
                Thread.currentThread().interrupt();
                try {
                  file.delete();
                  deleted.set(Thread.currentThread().isInterrupted());
                } catch (IOException e) {
                  throw new AssertionError(e);
                }
              });
      deleter.start();
      deleter.join(300);
      assertThat(deleter.isAlive()).as("delete waits for the chunk in flight").isTrue();
      release.countDown();
      deleter.join(10_000);
      assertThat(deleter.isAlive()).isFalse();
      assertThat(deleted).as("deleted, and the interrupt is kept for the caller").isTrue();
      assertThat(task.files()).isEmpty();
    }
  }

  @Test
  void anInterruptedReaderDoesNotBreakTheFileForLaterReads() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf("disk"), "attempt_intr_3")) {
      SpongeFile file = task.create("read-while-interrupted");
      byte[] expected;
      try (OutputStream out = file.output()) {
        expected = RandomBytes.write(out, 4, 6L * CHUNK + 5);
      }
      try (SpongeInputStream in = file.input()) {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> in.readNBytes(CHUNK)).isInstanceOf(InterruptedIOException.class);
        assertThat(Thread.interrupted()).isTrue();
      }
      for (int pass = 0; pass < 2; pass++) {
        try (SpongeInputStream in = file.input()) {
          assertThat(RandomBytes.read(in, 4).sha256).isEqualTo(expected);
        }
      }
      SpongeFile next = task.create("written-after");
      byte[] nextExpected;
      try (OutputStream out = next.output()) {
        nextExpected = RandomBytes.write(out, 5, 3L * CHUNK);
      }
      try (SpongeInputStream in = next.input()) {
        assertThat(RandomBytes.read(in, 5).sha256).isEqualTo(nextExpected);
      }
      assertThat(task.stats().chunksWritten(TierKind.DISK)).isEqualTo(7 + 3);
    }
  }

  @Test
  void anInterruptedPoolWriterFailsItsFileAndTheTaskGoesOnUsingThePool() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf("pool"), "attempt_intr_5")) {
      SpongeFile kept = task.create("kept");
      byte[] keptExpected;
      try (OutputStream out = kept.output()) {
        keptExpected = RandomBytes.write(out, 7, 2L * CHUNK + 3);
      }
      SpongeFile file = task.create("interrupted");
      OutputStream out = file.output();
      byte[] chunk = RandomBytes.array(8, CHUNK);
      out.write(chunk);
      Thread.currentThread().interrupt();
      assertThatThrownBy(() -> out.write(chunk)) // copies chunk 0 into the pool
          .isInstanceOf(InterruptedIOException.class);
      assertThat(Thread.interrupted()).isTrue();
      assertThatThrownBy(out::close).isInstanceOf(IOException.class);
      assertThat(file.state()).isEqualTo(SpongeFileState.FAILED);
      file.delete();

      SpongeFile next = task.create("after");
      byte[] nextExpected;
      try (OutputStream again = next.output()) {
        nextExpected = RandomBytes.write(again, 9, 4L * CHUNK + 1);
      }
      try (SpongeInputStream in = kept.input()) {
        assertThat(RandomBytes.read(in, 7).sha256).isEqualTo(keptExpected);
      }
      try (SpongeInputStream in = next.input()) {
        assertThat(RandomBytes.read(in, 9).sha256).isEqualTo(nextExpected);
      }
      assertThat(task.stats().chunksWritten(TierKind.POOL))
          .as("kept's 3 and next's 5 fill the pool: the failed chunk's pool chunk was freed")
          .isEqualTo(3 + 5);
    }
  }

  @Test
  @Timeout(60)
  void askingForTheLengthWhileWritingNeverDeadlocks() throws Exception {
    try (SpongeTask task = SpongeTask.open(conf("pool,disk"), "attempt_intr_4")) {
      SpongeFile file = task.create("watched");
      AtomicBoolean done = new AtomicBoolean();
      long[] lastSeen = new long[1];
      Thread watcher =
          new Thread(
              () -> {
                while (!done.get()) {
                  lastSeen[0] = Math.max(lastSeen[0], file.length());
                }
              });
      watcher.start();
      byte[] expected;
      try (OutputStream out = file.output()) {
        expected = RandomBytes.write(out, 6, 400L * CHUNK);
      } finally {
        done.set(true);
        watcher.join();
      }
      assertThat(lastSeen[0]).isPositive().isLessThanOrEqualTo(400L * CHUNK);
      try (SpongeInputStream in = file.input()) {
        assertThat(RandomBytes.read(in, 6).sha256).isEqualTo(expected);
      }
    }
  }
}
