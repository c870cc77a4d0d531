package org.spongefiles.tracker;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
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
    MemoryTracker tracker = launch(Arrays.asList(args), System.err);
    if (tracker == null) {
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

  /**
   * Reads the command line and configuration and starts the daemon; on a bad command line or
   * configuration, a port in use or an unusable pool, prints ONE line naming the key and value (no
   * stack trace) to {@code err} and returns null.
   */
  static MemoryTracker launch(List<String> args, PrintStream err) {
    Configuration conf;
    try {
      conf = DaemonArguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("sponge-tracker: " + oneLine(e.getMessage()));
      err.println("usage: TrackerMain --conf sponge-site.xml [-Dkey=value ...]");
      return null;
    } catch (RuntimeException e) {
      err.println(
          "sponge-tracker: cannot read the configuration: "
              + oneLine(String.valueOf(e.getMessage())));
      return null;
    }
    try {
      return MemoryTracker.start(conf);
    } catch (ConfigException e) {
      err.println("sponge-tracker: " + oneLine(e.getMessage()));
    } catch (IOException | RuntimeException e) {
      err.println("sponge-tracker: cannot start: " + oneLine(e.toString()));
    }
    return null;
  }

  private static String oneLine(String message) {
    return message.replaceAll("\\s*\\R\\s*", " ");
  }
}
