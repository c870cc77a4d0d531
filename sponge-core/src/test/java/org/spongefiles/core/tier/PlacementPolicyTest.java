package org.spongefiles.core.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.spongefiles.core.tier.TierKind.DFS;
import static org.spongefiles.core.tier.TierKind.DISK;
import static org.spongefiles.core.tier.TierKind.POOL;
import static org.spongefiles.core.tier.TierKind.REMOTE;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every answer of the placement policy, from tier orders and per-chunk facts alone. */
class PlacementPolicyTest {
  private static final PlacementPolicy DEFAULT =
      PlacementPolicy.of(List.of(POOL, REMOTE, DISK, DFS), true);
  private static final PlacementPolicy NO_OVERFLOW =
      PlacementPolicy.of(List.of(POOL, REMOTE, DISK, DFS), false);

  @Test
  void onlyAPoolFirstInTheOrderIsFilledInPlace() {
    assertThat(DEFAULT.reservesInPlace()).isTrue();
    assertThat(PlacementPolicy.of(List.of(POOL), false).reservesInPlace()).isTrue();
    assertThat(PlacementPolicy.of(List.of(DISK, POOL), true).reservesInPlace())
        .as("disk,pool: the pool is tried after the disk, through the chain")
        .isFalse();
    assertThat(PlacementPolicy.of(List.of(REMOTE, DISK), true).reservesInPlace()).isFalse();
    assertThat(PlacementPolicy.of(List.of(), true).reservesInPlace()).isFalse();
  }

  @Test
  void writersOverflowOnlyWhenTheSettingIsOnAndTheRemoteTierComesBeforeTheDisk() {
    assertThat(DEFAULT.overflows()).isTrue();
    assertThat(PlacementPolicy.of(List.of(REMOTE, DISK), true).overflows()).isTrue();
    assertThat(PlacementPolicy.of(List.of(REMOTE, DFS, DISK), true).overflows()).isTrue();
    assertThat(NO_OVERFLOW.overflows()).as("sponge.write.overflow=false").isFalse();
    assertThat(PlacementPolicy.of(List.of(POOL, DISK, REMOTE), true).overflows())
        .as("disk before remote")
        .isFalse();
    assertThat(PlacementPolicy.of(List.of(POOL, REMOTE, DFS), true).overflows())
        .as("no disk tier")
        .isFalse();
    assertThat(PlacementPolicy.of(List.of(POOL, DISK), true).overflows())
        .as("no remote tier")
        .isFalse();
    assertThat(PlacementPolicy.of(List.of(), true).overflows()).isFalse();
  }

  @Test
  void aChunkWithAReservedPoolChunkIsCopiedInPlaceWhateverElseHolds() {
    for (boolean closing : new boolean[] {false, true}) {
      for (boolean idle : new boolean[] {false, true}) {
        assertThat(DEFAULT.atSeal(true, closing, idle)).isEqualTo(Placement.IN_PLACE);
        assertThat(NO_OVERFLOW.atSeal(true, closing, idle)).isEqualTo(Placement.IN_PLACE);
      }
    }
  }

  @Test
  void theLastChunkGoesInlineOnlyWhenNothingOfTheFileIsBehindTheWriter() {
    assertThat(DEFAULT.atSeal(false, true, true)).isEqualTo(Placement.INLINE);
    assertThat(NO_OVERFLOW.atSeal(false, true, true)).isEqualTo(Placement.INLINE);
    assertThat(DEFAULT.atSeal(false, true, false))
        .as("chunks still queued: the last one goes behind them, in file order")
        .isEqualTo(Placement.BEHIND);
  }

  @Test
  void everyOtherChunkGoesBehindTheWriter() {
    assertThat(DEFAULT.atSeal(false, false, true)).isEqualTo(Placement.BEHIND);
    assertThat(DEFAULT.atSeal(false, false, false)).isEqualTo(Placement.BEHIND);
    assertThat(PlacementPolicy.of(List.of(DISK, POOL), true).atSeal(false, false, true))
        .isEqualTo(Placement.BEHIND);
  }

  @Test
  void withEveryWriteBehindBufferTakenAChunkOverflowsOrTheWriterWaits() {
    assertThat(DEFAULT.whenBuffersTaken()).isEqualTo(Placement.OVERFLOW);
    assertThat(NO_OVERFLOW.whenBuffersTaken()).isEqualTo(Placement.BEHIND);
    assertThat(PlacementPolicy.of(List.of(POOL, DISK, REMOTE), true).whenBuffersTaken())
        .isEqualTo(Placement.BEHIND);
  }

  @Test
  void chunksStillQueuedAtCloseOverflowOrStayQueued() {
    assertThat(DEFAULT.queuedAtClose()).isEqualTo(Placement.OVERFLOW);
    assertThat(NO_OVERFLOW.queuedAtClose()).isEqualTo(Placement.BEHIND);
    assertThat(PlacementPolicy.of(List.of(POOL, REMOTE, DFS), true).queuedAtClose())
        .isEqualTo(Placement.BEHIND);
  }

  @Test
  void theOrderIsCopiedAndNamedInTheDescription() {
    List<TierKind> order = new ArrayList<>(List.of(POOL, REMOTE, DISK));
    PlacementPolicy policy = PlacementPolicy.of(order, true);
    order.clear();
    assertThat(policy.reservesInPlace()).isTrue();
    assertThat(policy.overflows()).isTrue();
    assertThat(policy)
        .hasToString("placement of [POOL, REMOTE, DISK], in place in the pool, overflow to disk");
    assertThat(PlacementPolicy.of(List.of(DISK), true)).hasToString("placement of [DISK]");
  }

  @Test
  void aChainGivesItsOrder() throws Exception {
    try (TierChain chain = new TierChain(List.of(tier(REMOTE), tier(DISK)), (kind, bytes) -> {})) {
      assertThat(PlacementPolicy.of(chain, true))
          .hasToString("placement of [REMOTE, DISK], overflow to disk");
      assertThat(PlacementPolicy.of(chain, false)).hasToString("placement of [REMOTE, DISK]");
    }
  }

  @Test
  void aChainWhosePolicyReservesNothingRefusesToReserve() throws Exception {
    try (TierChain chain = new TierChain(List.of(tier(REMOTE), tier(DISK)), (kind, bytes) -> {})) {
      assertThat(PlacementPolicy.of(chain, true).reservesInPlace()).isFalse();
      assertThatThrownBy(() -> chain.reserveInPlace(new FileKey("attempt_1", 7, "spill")))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("the pool is not the first tier (remote -> disk)");
    }
  }

  @Test
  void aMissingOrderOrChainIsNamed() {
    assertThatThrownBy(() -> PlacementPolicy.of((List<TierKind>) null, true))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("order cannot be null");
    assertThatThrownBy(() -> PlacementPolicy.of((TierChain) null, true))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("chain cannot be null");
  }

  /** A tier that only has a kind: the policy never stores anything. */
  private static Tier tier(TierKind kind) {
    return new Tier() {
      @Override
      public TierKind kind() {
        return kind;
      }

      @Override
      public StoredChunk store(FileKey file, ByteBuffer data) {
        throw new AssertionError("the policy stored a chunk");
      }

      @Override
      public void delete(FileKey file, List<StoredChunk> chunks) {}

      @Override
      public String remaining() {
        return "unknown";
      }

      @Override
      public void close() {}
    };
  }
}
