package org.spongefiles.tracker;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.DaemonArguments;

/**
 * Runs a memory tracker until the process is told to stop (SIGTERM leaves the election first).
 *
 * <pre>
 * java -cp ... org.spongefiles.tracker.TrackerMain --conf sponge-site.xml [-Dkey=value ...]
 * </pre>
 */
public final class TrackerMain {
  private TrackerMain() {}

  public static void main(String[] args) throws Exception {
    Configuration conf;
    try {
      conf = DaemonArguments.parse(Arrays.asList(args));
    } catch (IllegalArgumentException e) {
      System.err.println("sponge-tracker: " + e.getMessage());
      System.err.println("usage: TrackerMain --conf sponge-site.xml [-Dkey=value ...]");
      System.exit(2);
      return;
    }
    MemoryTracker tracker;
    try {
      tracker = MemoryTracker.start(conf);
    } catch (ConfigException e) {
      System.err.println("sponge-tracker: " + e.getMessage());
      System.exit(2);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  tracker.close();
                  stopped.countDown();
                },
                "sponge-tracker-shutdown"));
    System.out.println(
        "READY "
            + tracker.endpoint()
            + " "
            + tracker.address().getPort()
            + " "
            + tracker.metricsPort());
    System.out.flush();
    stopped.await();
  }
}
