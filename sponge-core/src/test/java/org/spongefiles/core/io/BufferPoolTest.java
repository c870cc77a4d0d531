package org.spongefiles.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Live write buffers stay within the bound, also when one given back beyond the idle cap is
 * dropped.
 */
class BufferPoolTest {
  @Test
  void aDroppedBufferIsNoLongerLiveSoItsReplacementStaysWithinTheBound() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 2)) {
      ByteBuffer[] filling = {pool.take(), pool.take(), pool.take()};
      assertThat(pool.peakLive()).isEqualTo(3);
      for (ByteBuffer buffer : filling) {
        pool.giveBack(buffer); // the third is beyond the two idle kept: dropped
      }
      ByteBuffer first = pool.take();
      ByteBuffer second = pool.take();
      ByteBuffer third = pool.take(); // none idle: a new one replaces the dropped one
      assertThat(first).isSameAs(filling[1]);
      assertThat(second).isSameAs(filling[0]);
      for (ByteBuffer given : filling) {
        assertThat(third).isNotSameAs(given);
      }
      assertThat(pool.peakLive()).isEqualTo(3);
    }
  }

  @Test
  void buffersComingBackFromFlightAreReusedBeforeAnyIsAllocated() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 2)) {
      for (int chunk = 0; chunk < 50; chunk++) {
        ByteBuffer buffer = pool.take();
        pool.beginFlight();
        pool.endFlight(buffer);
      }
      assertThat(pool.peakLive()).isEqualTo(1);
      assertThat(pool.peakInFlight()).isEqualTo(1);
    }
  }

  @Test
  void tryBeginFlightCountsInUpToTheBoundAndNeverWaits() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 2)) {
      ByteBuffer first = pool.take();
      ByteBuffer second = pool.take();
      assertThat(pool.tryBeginFlight()).isTrue();
      assertThat(pool.tryBeginFlight()).isTrue();
      assertThat(pool.tryBeginFlight()).as("both places taken").isFalse();
      pool.endFlight(first);
      assertThat(pool.tryBeginFlight()).as("one place freed").isTrue();
      pool.endFlight(second);
      assertThat(pool.peakInFlight()).isEqualTo(2);
    }
  }
}
