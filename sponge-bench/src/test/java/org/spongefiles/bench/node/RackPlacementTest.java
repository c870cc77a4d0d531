package org.spongefiles.bench.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The remote cells' extra settings for ours are read as written, and a bad entry is named. */
class RackPlacementTest {
  @Test
  void settingsAreReadInOrderWithValuesThatHoldCommas() {
    assertThat(
            RackPlacement.settings(
                "bench.node.remote.settings",
                "sponge.tiers=pool,disk; sponge.merger.read.buffer.size=256k;"))
        .containsExactly(
            Map.entry("sponge.tiers", "pool,disk"),
            Map.entry("sponge.merger.read.buffer.size", "256k"));
    assertThat(RackPlacement.settings("bench.node.remote.settings", "")).isEmpty();
  }

  @Test
  void anEntryWithoutAKeyOrAnEqualsSignIsNamed() {
    assertThatThrownBy(
            () -> RackPlacement.settings("bench.node.remote.settings", "sponge.io.threads"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "bench.node.remote.settings=sponge.io.threads: entry 'sponge.io.threads' is not"
                + " key=value");
    assertThatThrownBy(() -> RackPlacement.settings("bench.node.remote.settings", "=4"))
        .hasMessageContaining("entry '=4'");
  }
}
