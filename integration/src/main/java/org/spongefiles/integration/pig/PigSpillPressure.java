package org.spongefiles.integration.pig;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import javax.management.Notification;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import org.apache.pig.impl.util.SpillableMemoryManager;

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
                  SpillableMemoryManager.getInstance().handleNotification(fullHeap(), null);
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

  /** A "collection usage threshold exceeded" notification reporting the heap full. */
  static Notification fullHeap() throws Exception {
    CompositeData real =
        (CompositeData)
            ManagementFactory.getPlatformMBeanServer()
                .getAttribute(new ObjectName("java.lang:type=Memory"), "HeapMemoryUsage");
    CompositeType usageType = real.getCompositeType();
    long max = Runtime.getRuntime().maxMemory();
    CompositeData usage =
        new CompositeDataSupport(
            usageType,
            new String[] {"init", "used", "committed", "max"},
            new Object[] {0L, max, max, max});
    String[] items = {"poolName", "usage", "count"};
    CompositeType infoType =
        new CompositeType(
            MemoryNotificationInfo.class.getName(),
            "memory notification",
            items,
            items,
            new OpenType<?>[] {SimpleType.STRING, usageType, SimpleType.LONG});
    Notification notification =
        new Notification(
            MemoryNotificationInfo.MEMORY_COLLECTION_THRESHOLD_EXCEEDED,
            ManagementFactory.getMemoryMXBean(),
            System.nanoTime());
    notification.setUserData(
        new CompositeDataSupport(infoType, items, new Object[] {"pressure", usage, 1L}));
    return notification;
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    thread.interrupt();
    thread.join(10_000);
  }
}
