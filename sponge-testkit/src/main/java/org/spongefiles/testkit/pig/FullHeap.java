package org.spongefiles.testkit.pig;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.Notification;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import org.apache.pig.impl.util.SpillableMemoryManager;

/**
 * Tells Pig's memory manager that the heap is full, through the same notification the JVM sends
 * when a collection threshold is crossed, so it spills its registered bags now. For the module's
 * tests and the Pig benchmarks, which cannot shrink their own heap; tasks never call it.
 */
public final class FullHeap {
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private FullHeap() {}

  /** Delivers the notification to Pig's memory manager, in the calling thread. */
  public static void tellPig() throws JMException {
    SpillableMemoryManager.getInstance().handleNotification(notification(), null);
  }

  /** A "collection usage threshold exceeded" notification reporting the heap full. */
  public static Notification notification() throws JMException {
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
            SEQUENCE.incrementAndGet());
    notification.setUserData(
        new CompositeDataSupport(infoType, items, new Object[] {"full-heap", usage, 1L}));
    return notification;
  }
}
