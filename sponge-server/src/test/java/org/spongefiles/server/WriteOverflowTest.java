package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.ChunkInfo;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;

/**
 * A remote tier slower than the writer (here a server process stopped with SIGSTOP, so every chunk
 * written to it waits): with {@code sponge.write.overflow} (the default) the writer keeps going,
 * stores every chunk that finds the write-behind buffers full on the local disk itself, and at
 * close takes back the chunks still queued for the server; without it, the writer waits and every
 * chunk goes to the server. Either way every byte reads back. A server that keeps up is waited for
 * ({@code sponge.write.overflow.wait}): its chunks come back in time, and none overflows.
 */
@Timeout(120)
class WriteOverflowTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final int CHUNKS = 10;
  private static final int BUFFERS = 2;

  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Path stderr;

  @BeforeEach
  void setUp() throws Exception {
    stderr = fixture.tempFile("write-overflow", ".err");
  }

  @Test
  void aWriterHeldBackByTheRemoteTierStoresItsNextChunksOnTheLocalDisk() throws Exception {
    List<TierKind> tiers = writeWhileTheServerIsStopped(null, "attempt_overflow_1");
    assertThat(tiers.get(1))
        .as("the chunk queued behind the first, taken back by the closing writer")
        .isEqualTo(TierKind.DISK);
    assertThat(tiers.subList(BUFFERS, CHUNKS))
        .as("the rest, written while both buffers waited on the stopped server")
        .containsOnly(TierKind.DISK);
    // The first chunk's store started at once and waited for the server, unless the writer closed
    // before the I/O thread took it (then the writer took it back too).
    assertThat(tiers.get(0)).isIn(TierKind.REMOTE, TierKind.DISK);
  }

  @Test
  void withoutOverflowTheWriterWaitsAndEveryChunkGoesToTheServer() throws Exception {
    List<TierKind> tiers = writeWhileTheServerIsStopped(false, "attempt_overflow_2");
    assertThat(tiers).hasSize(CHUNKS).containsOnly(TierKind.REMOTE);
  }

  @Test
  void aWriterWaitsForAServerThatKeepsUpInsteadOfOverflowing() throws Exception {
    try (ServerProcess server = ServerProcess.start(fixture.serverConf("node-a", 64), stderr)) {
      Configuration conf = fixture.clientConf("node-x", 0);
      conf.set(SpongeOptions.REMOTE_SERVERS.key(), server.endpoint);
      conf.unset(SpongeOptions.WRITE_OVERFLOW.key()); // the default: on
      // One chunk ahead at most: every chunk sealed finds the buffer in flight. A wait far longer
      // than any store here, so that each is due back within it however loaded the machine is.
      SpongeOptions.WRITE_BUFFERS.set(conf, 1);
      SpongeOptions.IO_THREADS.set(conf, 1);
      SpongeOptions.WRITE_OVERFLOW_WAIT.set(conf, java.time.Duration.ofSeconds(1));
      byte[] data = RandomBytes.array(8, CHUNKS * CHUNK);
      try (SpongeTask task = SpongeTask.open(conf, "attempt_overflow_3")) {
        SpongeFile file = task.create("spill");
        try (OutputStream out = file.output()) {
          for (int i = 0; i < CHUNKS; i++) {
            out.write(data, i * CHUNK, CHUNK);
          }
        }
        try (SpongeInputStream in = file.input()) {
          assertThat(in.readAllBytes()).as("every byte back").isEqualTo(data);
        }
        assertThat(file.chunks().stream().map(ChunkInfo::tier))
            .as("each chunk waited for the one before it, none went to the disk")
            .hasSize(CHUNKS)
            .containsOnly(TierKind.REMOTE);
        assertThat(task.stats().asCounters()).containsEntry("OVERFLOW_CHUNKS", 0L);
      }
    }
  }

  /**
   * Writes {@link #CHUNKS} chunks while the only server is stopped (resumed after a second), checks
   * every byte and the overflow counter, and returns each chunk's tier.
   */
  private List<TierKind> writeWhileTheServerIsStopped(Boolean overflow, String attempt)
      throws Exception {
    try (ServerProcess server = ServerProcess.start(fixture.serverConf("node-a", 64), stderr)) {
      Configuration conf = fixture.clientConf("node-x", 0);
      conf.set(SpongeOptions.REMOTE_SERVERS.key(), server.endpoint);
      SpongeOptions.WRITE_BUFFERS.set(conf, BUFFERS);
      SpongeOptions.IO_THREADS.set(conf, 1);
      if (overflow == null) {
        conf.unset(SpongeOptions.WRITE_OVERFLOW.key()); // the default
      } else {
        SpongeOptions.WRITE_OVERFLOW.set(conf, overflow);
      }
      byte[] data = RandomBytes.array(7, CHUNKS * CHUNK);
      try (SpongeTask task = SpongeTask.open(conf, attempt)) {
        SpongeFile file = task.create("spill");
        server.signal("STOP");
        Thread resume =
            new Thread(
                () -> {
                  try {
                    Thread.sleep(1000);
                    server.signal("CONT");
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
        resume.start();
        try (OutputStream out = file.output()) {
          for (int i = 0; i < CHUNKS; i++) {
            out.write(data, i * CHUNK, CHUNK);
          }
        } finally {
          resume.join();
        }
        try (SpongeInputStream in = file.input()) {
          assertThat(in.readAllBytes()).as("every byte back").isEqualTo(data);
        }
        List<TierKind> tiers =
            file.chunks().stream().map(ChunkInfo::tier).collect(Collectors.toList());
        long disk = tiers.stream().filter(tier -> tier == TierKind.DISK).count();
        assertThat(task.stats().asCounters())
            .containsEntry("OVERFLOW_CHUNKS", disk)
            .containsEntry("DISK_CHUNKS_WRITTEN", disk);
        return tiers;
      }
    }
  }
}
