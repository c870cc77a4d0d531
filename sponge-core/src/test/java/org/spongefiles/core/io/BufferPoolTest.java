package org.spongefiles.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Live write buffers stay within the bound, also when one given back beyond the idle cap is
 * dropped; a writer finding every place taken waits only for a flight due back within its wait.
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
        pool.beginFlight(a); // chunk 0 sealed
        ByteBuffer b = pool.take();
        pool.beginFlight(b); // chunk 1 sealed: both places taken
        ByteBuffer c = pool.take(); // chunk 2 being filled: three live
        pool.endFlight(a);
        pool.beginFlight(c); // chunk 2 sealed at close, once a place is free
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
        pool.beginFlight(buffer);
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
      ByteBuffer third = pool.take();
      assertThat(pool.tryBeginFlight(first)).isTrue();
      assertThat(pool.tryBeginFlight(second)).isTrue();
      assertThat(pool.tryBeginFlight(third)).as("both places taken").isFalse();
      pool.endFlight(first);
      assertThat(pool.tryBeginFlight(third)).as("one place freed").isTrue();
      pool.endFlight(second);
      pool.endFlight(third);
      assertThat(pool.peakInFlight()).isEqualTo(2);
    }
  }

  @Test
  void aWriterWaitsForAFlightDueBackSoonAndFindsAPlaceWhenItEnds() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 1)) {
      ByteBuffer late = inFlightAfterOneOf(pool, 0); // the flights so far took next to nothing
      ByteBuffer next = pool.take();
      Thread ender = endLater(pool, late, 100);
      assertThat(pool.awaitPlaceSoon(Duration.ofSeconds(10).toNanos()))
          .as("due at once, back after 100 ms")
          .isTrue();
      assertThat(pool.tryBeginFlight(next)).isTrue();
      ender.join();
      assertThat(pool.peakInFlight()).isEqualTo(1);
    }
  }

  @Test
  void beforeAnyFlightEndedTheFirstIsWaitedForUpToTheWait() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 1)) {
      ByteBuffer first = pool.take();
      pool.beginFlight(first);
      Thread ender = endLater(pool, first, 100);
      assertThat(pool.meanFlightNanos()).isEqualTo(-1);
      assertThat(pool.awaitPlaceSoon(Duration.ofSeconds(10).toNanos())).isTrue();
      ender.join();
      assertThat(pool.meanFlightNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
    }
  }

  @Test
  void aFlightDueLaterThanTheWaitIsNotWaitedFor() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 1)) {
      ByteBuffer late = inFlightAfterOneOf(pool, 400); // flights take 400 ms here
      ByteBuffer next = pool.take();
      // Back after 150 ms, but due after about 400: a writer that waited would find a place.
      Thread ender = endLater(pool, late, 150);
      assertThat(pool.awaitPlaceSoon(Duration.ofMillis(200).toNanos())).isFalse();
      ender.join();
      assertThat(pool.tryBeginFlight(next)).isTrue();
    }
  }

  @Test
  void anOverdueFlightIsNotWaitedForAndOneThatStaysOutEndsTheWait() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 1)) {
      ByteBuffer stuck = inFlightAfterOneOf(pool, 0);
      long start = System.nanoTime();
      assertThat(pool.awaitPlaceSoon(Duration.ofMillis(100).toNanos()))
          .as("due at once, never back")
          .isFalse();
      assertThat(System.nanoTime() - start)
          .as("waited the whole wait")
          .isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
      Thread.sleep(300);
      // Now overdue by more than the wait: not waited for, though it comes back within it.
      Thread ender = endLater(pool, stuck, 100);
      assertThat(pool.awaitPlaceSoon(Duration.ofMillis(200).toNanos())).isFalse();
      ender.join();
    }
  }

  @Test
  void noWaitNeverWaits() throws Exception {
    try (BufferPool pool = new BufferPool(1024, 1)) {
      ByteBuffer first = pool.take();
      pool.beginFlight(first);
      Thread ender = endLater(pool, first, 50);
      assertThat(pool.awaitPlaceSoon(0)).isFalse();
      ender.join();
      assertThat(pool.awaitPlaceSoon(0)).as("a place is free").isTrue();
    }
  }

  /** Flies one buffer for {@code millis}, then counts another in flight and returns it. */
  private static ByteBuffer inFlightAfterOneOf(BufferPool pool, long millis) throws Exception {
    ByteBuffer first = pool.take();
    pool.beginFlight(first);
    Thread.sleep(millis);
    pool.endFlight(first);
    ByteBuffer second = pool.take();
    pool.beginFlight(second);
    return second;
  }

  /** Ends {@code buffer}'s flight in another thread after {@code millis}. */
  private static Thread endLater(BufferPool pool, ByteBuffer buffer, long millis) {
    Thread thread =
        new Thread(
            () -> {
              try {
                Thread.sleep(millis);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              pool.endFlight(buffer);
            },
            "end-flight");
    thread.start();
    return thread;
  }
}
