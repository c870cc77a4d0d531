package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pinned chunk's release waits for its last unpin; until then it is gone for new pins. */
class ChunkPinsTest {
  private final ChunkPins pins = new ChunkPins();
  private final List<Integer> returned = new ArrayList<>();

  private int release(Integer... chunks) throws Exception {
    return pins.release(
        List.of(chunks),
        Integer::intValue,
        chunk -> chunk != 99,
        some -> {
          returned.addAll(some);
          return some.size();
        });
  }

  @Test
  void unpinnedChunksAreReleasedAtOnce() throws Exception {
    assertThat(release(1, 2)).isEqualTo(2);
    assertThat(returned).containsExactly(1, 2);
    assertThat(pins.isReleased(1)).isFalse();
    assertThat(pins.pin(1))
        .as("a chunk back in the pool may be pinned again (then checked)")
        .isTrue();
  }

  @Test
  void aPinnedChunkIsReleasedAtItsLastUnpinAndIsGoneMeanwhile() throws Exception {
    assertThat(pins.pin(3)).isTrue();
    assertThat(pins.pin(3)).isTrue();
    assertThat(release(3, 4)).as("both count as released").isEqualTo(2);
    assertThat(returned).containsExactly(4);
    assertThat(pins.isReleased(3)).isTrue();
    assertThat(pins.pin(3)).as("no new I/O on a released chunk").isFalse();
    assertThat(release(3)).as("released once only").isZero();
    pins.unpin(3);
    assertThat(returned).containsExactly(4);
    pins.unpin(3);
    assertThat(returned).containsExactly(4, 3);
    assertThat(pins.isReleased(3)).isFalse();
    assertThat(pins.pinned()).isZero();
  }

  @Test
  void aPinnedChunkTheCallerMayNotReleaseIsLeftAlone() throws Exception {
    assertThat(pins.pin(99)).isTrue();
    assertThat(release(99)).isZero();
    assertThat(pins.isReleased(99)).isFalse();
    pins.unpin(99);
    assertThat(returned).isEmpty();
  }

  @Test
  void unpinningAChunkNotPinnedIsABug() {
    assertThatThrownBy(() -> pins.unpin(5)).isInstanceOf(IllegalStateException.class);
  }
}
