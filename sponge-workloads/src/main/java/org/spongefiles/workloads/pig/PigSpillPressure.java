package org.spongefiles.workloads.pig;

import org.spongefiles.testkit.pig.FullHeap;

/**
 * Tells Pig's memory manager, every few milliseconds, that the heap is full, through the call the
 * JVM makes when a threshold is crossed, so it spills every registered bag larger than {@code
 * pig.spill.size.threshold} from its own thread while the task adds to and reads them. Tests use it
 * to make spills certain on any machine; benchmarks leave spilling to a small heap.
 */
final class PigSpillPressure implements AutoCloseable {
  private final Thread thread;
  private volatile boolean stopped;

  private PigSpillPressure(long periodMillis) {
    thread =
        new Thread(
            () -> {
              while (!stopped) {
                try {
                  Thread.sleep(periodMillis);
                  FullHeap.tellPig();
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  throw new IllegalStateException("Cannot notify Pig's memory manager", e);
                }
              }
            },
            "pig-spill-pressure");
    thread.setDaemon(true);
  }

  /** Starts notifying every {@code periodMillis} ms. */
  static PigSpillPressure start(long periodMillis) {
    if (periodMillis < 1) {
      throw new IllegalArgumentException("periodMillis : " + periodMillis + " (expected: > 0)");
    }
    PigSpillPressure pressure = new PigSpillPressure(periodMillis);
    pressure.thread.start();
    return pressure;
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    thread.interrupt();
    thread.join(10_000);
  }
}
