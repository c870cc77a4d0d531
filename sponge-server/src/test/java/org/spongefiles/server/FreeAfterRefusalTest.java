package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.ChunkInfo;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;

/**
 * A server that refused a chunk (over quota) is avoided for new chunks during its back-off, but a
 * file deleted right after the refusal still frees its chunks there at once.
 */
class FreeAfterRefusalTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  @Test
  void aDeleteRightAfterARefusalFreesTheRemoteChunksAtOnce() throws Exception {
    Configuration conf = fixture.serverConf("node-a", 16);
    ServerOptions.QUOTA_PER_TASK.set(conf, 3L * CHUNK);
    SpongeServer server = fixture.start(conf);
    Configuration client = fixture.clientConf("node-x", 0, server);
    SpongeOptions.REMOTE_REFUSAL_BACKOFF.set(client, Duration.ofMinutes(30));
    try (SpongeTask task = SpongeTask.open(client, "attempt_far_1")) {
      SpongeFile file = task.create("refused");
      try (OutputStream out = file.output()) {
        RandomBytes.write(out, 11, 6L * CHUNK);
      }
      assertThat(file.chunks().stream().map(ChunkInfo::tier))
          .containsExactly(
              TierKind.REMOTE,
              TierKind.REMOTE,
              TierKind.REMOTE,
              TierKind.DISK,
              TierKind.DISK,
              TierKind.DISK);
      assertThat(server.pool().freeChunks()).isEqualTo(16 - 3);
      file.delete();
      assertThat(server.pool().freeChunks()).as("freed during the refusal back-off").isEqualTo(16);
    }
  }
}
