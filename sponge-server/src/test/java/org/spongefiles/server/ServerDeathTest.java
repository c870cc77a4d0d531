package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
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
 * A server process killed with SIGKILL: a chunk being written to it is placed elsewhere and nothing
 * is lost; a chunk that must be read from it fails the read with an IOException naming the server
 * and the chunk, and no wrong byte is ever returned.
 */
@Timeout(120)
class ServerDeathTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Path stderr;

  @BeforeEach
  void setUp() throws Exception {
    stderr = fixture.tempFile("server-death", ".err");
  }

  @Test
  void killedMidWriteThenNeededForARead() throws Exception {
    try (ServerProcess doomed = ServerProcess.start(fixture.serverConf("node-a", 64), stderr)) {
      SpongeServer survivor = fixture.start("node-b", 64);
      Configuration conf = fixture.clientConf("node-x", 0);
      conf.set(SpongeOptions.REMOTE_SERVERS.key(), doomed.endpoint + "," + survivor.endpoint());
      SpongeOptions.REMOTE_ALLOCATE_BATCH.set(conf, 1);
      try (SpongeTask task = SpongeTask.open(conf, "attempt_death_1")) {
        // Before: a file wholly on the doomed server.
        SpongeFile before = task.create("before");
        byte[] beforeData = RandomBytes.array(1, 6 * CHUNK);
        try (OutputStream out = before.output()) {
          out.write(beforeData);
        }
        assertThat(before.chunks()).allMatch(c -> c.location().contains(doomed.endpoint));

        // Freeze the server so the next write hangs in mid-air, then kill it.
        doomed.signal("STOP");
        SpongeFile during = task.create("during");
        byte[] duringData = RandomBytes.array(2, 5 * CHUNK + 17);
        Thread killer =
            new Thread(
                () -> {
                  try {
                    Thread.sleep(500);
                    doomed.kill();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
        killer.start();
        try (OutputStream out = during.output()) {
          out.write(duringData);
        }
        killer.join();
        assertThat(during.chunks()).noneMatch(c -> c.location().contains(doomed.endpoint));
        assertThat(during.chunks()).extracting(ChunkInfo::tier).containsOnly(TierKind.REMOTE);
        try (SpongeInputStream in = during.input()) {
          assertThat(in.readAllBytes()).as("nothing lost").isEqualTo(duringData);
        }

        // After: reading what lived on the dead server fails, naming it; no wrong bytes.
        CutRead cut = CutRead.of(before, beforeData.length, 0, () -> {});
        assertThat(cut.failure).isNotNull();
        assertThat(cut.failure.getMessage())
            .contains("remote chunk")
            .contains("on server " + doomed.endpoint);
        assertThat(cut.bytes()).isEqualTo(Arrays.copyOf(beforeData, cut.read));
      }
    }
  }

  @Test
  void killedMidReadFailsTheReadNamingServerAndChunk() throws Exception {
    try (ServerProcess doomed = ServerProcess.start(fixture.serverConf("node-a", 64), stderr)) {
      SpongeServer survivor = fixture.start("node-b", 4);
      Configuration conf = fixture.clientConf("node-x", 0);
      conf.set(SpongeOptions.REMOTE_SERVERS.key(), survivor.endpoint() + "," + doomed.endpoint);
      try (SpongeTask task = SpongeTask.open(conf, "attempt_death_2")) {
        SpongeFile file = task.create("split");
        byte[] data = RandomBytes.array(3, 12 * CHUNK);
        try (OutputStream out = file.output()) {
          out.write(data);
        }
        // Chunks 0-3 on the survivor, 4-11 on the doomed server.
        assertThat(file.chunks().get(3).location()).contains(survivor.endpoint());
        assertThat(file.chunks().get(4).location()).contains(doomed.endpoint);
        CutRead cut = CutRead.of(file, data.length, 2 * CHUNK, doomed::kill);
        assertThat(cut.failure).isNotNull();
        assertThat(cut.failure.getMessage())
            .contains("on server " + doomed.endpoint)
            .contains("remote chunk");
        assertThat(cut.read).isGreaterThanOrEqualTo(2 * CHUNK).isLessThan(data.length);
        assertThat(cut.bytes())
            .as("every byte returned is right")
            .isEqualTo(Arrays.copyOf(data, cut.read));
      }
    }
  }

  /** A read of a file that a failure may cut short: the bytes it got, and the failure. */
  private static final class CutRead {
    final byte[] got;
    int read;
    IOException failure;

    private CutRead(int length) {
      got = new byte[length];
    }

    /**
     * Reads the first {@code first} bytes of {@code file}, runs {@code between}, then reads on to
     * {@code length} bytes or a failure.
     */
    static CutRead of(SpongeFile file, int length, int first, Interruptible between)
        throws InterruptedException {
      CutRead cut = new CutRead(length);
      try (SpongeInputStream in = file.input()) {
        cut.read = in.readNBytes(cut.got, 0, first);
        between.run();
        int n;
        while ((n = in.read(cut.got, cut.read, length - cut.read)) > 0) {
          cut.read += n;
        }
      } catch (IOException e) {
        cut.failure = e;
      }
      return cut;
    }

    byte[] bytes() {
      return Arrays.copyOf(got, read);
    }
  }

  private interface Interruptible {
    void run() throws InterruptedException;
  }
}
