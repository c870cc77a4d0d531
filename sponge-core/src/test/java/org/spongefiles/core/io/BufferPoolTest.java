package org.spongefiles.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Live write buffers stay within the bound, also when one given back beyond the idle cap is
 * dropped.
 */
class BufferPoolTest {
  @Test
  void aDroppedBufferIsNoLongerLiveSoItsReplacementStaysWithinTheBound() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 2)) {
      ByteBuffer[] filling = {pool.take(), pool.take(), pool.take(), pool.take()};
      assertThat(pool.peakLive()).isEqualTo(4);
      for (ByteBuffer buffer : filling) {
        pool.giveBack(buffer); // the fourth is beyond the three idle kept: dropped
      }
      ByteBuffer first = pool.take();
      ByteBuffer second = pool.take();
      ByteBuffer third = pool.take();
      ByteBuffer fourth = pool.take(); // none idle: a new one replaces the dropped one
      assertThat(first).isSameAs(filling[2]);
      assertThat(second).isSameAs(filling[1]);
      assertThat(third).isSameAs(filling[0]);
      for (ByteBuffer given : filling) {
        assertThat(fourth).isNotSameAs(given);
      }
      assertThat(pool.peakLive()).isEqualTo(4);
    }
  }

  @Test
  void aWriterStartingItsNextFileReusesEveryBufferOfTheLastOne() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 2)) {
      Set<ByteBuffer> firstFile = Collections.newSetFromMap(new IdentityHashMap<>());
      for (int file = 0; file < 5; file++) {
        ByteBuffer a = pool.take();
        pool.beginFlight(); // chunk 0 sealed
        ByteBuffer b = pool.take();
        pool.beginFlight(); // chunk 1 sealed: both places taken
        ByteBuffer c = pool.take(); // chunk 2 being filled: three live
        pool.endFlight(a);
        pool.beginFlight(); // chunk 2 sealed at close, once a place is free
        pool.endFlight(b);
        pool.endFlight(c);
        if (file == 0) {
          firstFile.addAll(List.of(a, b, c));
        } else {
          assertThat(firstFile).as("file %d", file).contains(a, b, c);
        }
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
