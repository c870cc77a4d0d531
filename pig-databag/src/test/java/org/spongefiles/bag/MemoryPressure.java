package org.spongefiles.bag;

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
 * Tells Pig's memory manager that the heap is full, through the same call the JVM makes, so it
 * spills its registered bags now: a test cannot shrink its own heap.
 */
final class MemoryPressure {
  private static long sequence;

  private MemoryPressure() {}

  /** Delivers a "collection usage threshold exceeded" with the heap reported full. */
  static void notifyFullHeap() throws Exception {
    SpillableMemoryManager.getInstance().handleNotification(fullHeap(), null);
  }

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
    CompositeType infoType =
        new CompositeType(
            MemoryNotificationInfo.class.getName(),
            "memory notification",
            new String[] {"poolName", "usage", "count"},
            new String[] {"poolName", "usage", "count"},
            new OpenType<?>[] {SimpleType.STRING, usageType, SimpleType.LONG});
    CompositeData info =
        new CompositeDataSupport(
            infoType,
            new String[] {"poolName", "usage", "count"},
            new Object[] {"test", usage, 1L});
    Notification notification =
        new Notification(
            MemoryNotificationInfo.MEMORY_COLLECTION_THRESHOLD_EXCEEDED,
            ManagementFactory.getMemoryMXBean(),
            ++sequence);
    notification.setUserData(info);
    return notification;
  }
}
