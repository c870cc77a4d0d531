package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A session is closed exactly once, when its reduce attempt is over, and not before. */
class OpenSessionsTest {
  private static final Duration SEVERAL_SWEEPS = Duration.ofMillis(4 * OpenSessions.SWEEP_MILLIS);

  private final OpenSessions sessions = new OpenSessions();

  @Test
  void aSessionIsClosedOnceItsThreadHasEnded() throws InterruptedException {
    Session session = new Session();
    Thread attempt = new Thread(() -> sessions.add(session, Thread.currentThread()), "attempt");
    attempt.start();
    attempt.join();

    await().atMost(Duration.ofSeconds(10)).until(() -> session.closes.get() == 1);
    await()
        .during(SEVERAL_SWEEPS)
        .atMost(SEVERAL_SWEEPS.multipliedBy(2))
        .until(() -> session.closes.get() == 1);
    assertThat(sessions.open()).isEmpty();
  }

  @Test
  void aThreadStartingAnotherAttemptClosesItsEarlierSession() {
    Session first = new Session();
    Session second = new Session();

    sessions.add(first, Thread.currentThread());
    sessions.add(second, Thread.currentThread());

    assertThat(first.closes).hasValue(1);
    assertThat(second.closes).hasValue(0);
    assertThat(sessions.open()).containsExactly(second);
    second.close();
    assertThat(sessions.open()).isEmpty();
  }

  @Test
  void aSessionOfALiveThreadStaysOpen() {
    Session session = new Session();

    sessions.add(session, Thread.currentThread());

    await()
        .during(SEVERAL_SWEEPS)
        .atMost(SEVERAL_SWEEPS.multipliedBy(2))
        .until(() -> session.closes.get() == 0);
    assertThat(sessions.open()).containsExactly(session);
    session.close();
  }

  /** Counts its closes and leaves the registry when closed, as a merger session does. */
  private final class Session implements Closeable {
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void close() {
      closes.incrementAndGet();
      sessions.remove(this);
    }
  }
}
