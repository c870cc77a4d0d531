package org.spongefiles.workloads.pig;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;
import org.apache.pig.impl.plan.OperatorPlan;
import org.apache.pig.tools.pigstats.JobStats;
import org.apache.pig.tools.pigstats.OutputStats;
import org.apache.pig.tools.pigstats.PigProgressNotificationListener;

/**
 * What of SpongeFiles is still strongly reachable after each job of a script: when Pig says a job
 * finished, counts the live instances of {@link #CLASSES} in a class histogram (the JVM's {@code
 * GC.class_histogram}, after a full collection), retrying for up to {@value #WAIT_MILLIS} ms while
 * any is left, and prints {@code HELD job=<id> <class>=<count> ...}. A finished task's SpongeFiles
 * must be gone by then, whatever Pig still holds of the task (its statics keep the finished task's
 * context, so its bags, until the next task sets up).
 */
final class JobEndHeld implements PigProgressNotificationListener {
  /** The classes that hold a task's SpongeFiles. */
  static final String[] CLASSES = {
    "org.spongefiles.core.SpongeTask", "org.spongefiles.core.SpongeFile"
  };

  private static final long WAIT_MILLIS = 500;

  @Override
  public void jobFinishedNotification(String scriptId, JobStats job) {
    long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
    long[] counts = counts();
    while (held(counts) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      counts = counts();
    }
    StringBuilder line = new StringBuilder("HELD job=").append(job.getJobId());
    for (int i = 0; i < CLASSES.length; i++) {
      line.append(' ').append(CLASSES[i]).append('=').append(counts[i]);
    }
    System.out.println(line);
    System.out.flush();
  }

  private static boolean held(long[] counts) {
    for (long count : counts) {
      if (count > 0) {
        return true;
      }
    }
    return false;
  }

  /** Live instances of each of {@link #CLASSES}, after a full collection. */
  private static long[] counts() {
    String histogram;
    try {
      histogram =
          (String)
              ManagementFactory.getPlatformMBeanServer()
                  .invoke(
                      new ObjectName("com.sun.management:type=DiagnosticCommand"),
                      "gcClassHistogram",
                      new Object[] {new String[0]},
                      new String[] {String[].class.getName()});
    } catch (JMException e) {
      throw new IllegalStateException("Cannot take a class histogram: " + e, e);
    }
    long[] counts = new long[CLASSES.length];
    for (String row : histogram.split("\n")) {
      // "   12:            1             56  org.spongefiles.core.SpongeTask"
      String[] fields = row.trim().split("\\s+");
      for (int i = 0; i < CLASSES.length; i++) {
        if (fields.length >= 4 && fields[3].equals(CLASSES[i])) {
          counts[i] = Long.parseLong(fields[1]);
        }
      }
    }
    return counts;
  }

  @Override
  public void initialPlanNotification(String scriptId, OperatorPlan<?> plan) {}

  @Override
  public void launchStartedNotification(String scriptId, int numJobsToLaunch) {}

  @Override
  public void jobsSubmittedNotification(String scriptId, int numJobsSubmitted) {}

  @Override
  public void jobStartedNotification(String scriptId, String assignedJobId) {}

  @Override
  public void jobFailedNotification(String scriptId, JobStats jobStats) {}

  @Override
  public void outputCompletedNotification(String scriptId, OutputStats outputStats) {}

  @Override
  public void progressUpdatedNotification(String scriptId, int progress) {}

  @Override
  public void launchCompletedNotification(String scriptId, int numJobsSucceeded) {}
}
