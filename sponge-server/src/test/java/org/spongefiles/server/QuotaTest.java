package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.testkit.RandomBytes;

/** A task past its per-node quota is refused by that server only; other tasks are unaffected. */
class QuotaTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();

  @Test
  void overQuotaChunksMoveToTheNextServerAndOtherTasksKeepTheirShare() throws Exception {
    Configuration quoted = fixture.serverConf("node-a", 64);
    ServerOptions.QUOTA_PER_TASK.set(quoted, 5L * CHUNK);
    SpongeServer a = fixture.start(quoted);
    SpongeServer b = fixture.start("node-b", 64);
    try (SpongeTask first = SpongeTask.open(fixture.clientConf("node-x", 0, a, b), "attempt_q_1");
        SpongeTask second = SpongeTask.open(fixture.clientConf("node-y", 0, a, b), "attempt_q_2")) {
      byte[] data = RandomBytes.array(7, 12 * CHUNK);
      SpongeFile big = first.create("big");
      try (OutputStream out = big.output()) {
        out.write(data);
      }
      long onA = big.chunks().stream().filter(c -> c.location().contains(a.endpoint())).count();
      long onB = big.chunks().stream().filter(c -> c.location().contains(b.endpoint())).count();
      assertThat(onA).isEqualTo(5);
      assertThat(onB).isEqualTo(7);
      SpongeFile other = second.create("other");
      try (OutputStream out = other.output()) {
        out.write(data, 0, 3 * CHUNK);
      }
      assertThat(other.chunks()).allMatch(c -> c.location().contains(a.endpoint()));
      assertThat(first.stats().bytesWritten(TierKind.REMOTE)).isEqualTo(12L * CHUNK);
      try (SpongeInputStream in = big.input()) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
    }
  }
}
