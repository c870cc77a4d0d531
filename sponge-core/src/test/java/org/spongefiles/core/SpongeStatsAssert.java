package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.spongefiles.core.tier.TierKind;

/** Assertions on where a task's bytes went. */
final class SpongeStatsAssert {
  private SpongeStatsAssert() {}

  static void wrote(SpongeTask task, TierKind tier, long bytes, long chunks) {
    assertThat(task.stats().bytesWritten(tier)).as("%s bytes written", tier).isEqualTo(bytes);
    assertThat(task.stats().chunksWritten(tier)).as("%s chunks written", tier).isEqualTo(chunks);
  }
}
