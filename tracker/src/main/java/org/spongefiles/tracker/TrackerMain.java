package org.spongefiles.tracker;

import java.io.PrintStream;
import java.util.List;
import org.spongefiles.daemon.DaemonLauncher;

/**
 * Runs a memory tracker until the process is told to stop (SIGTERM leaves the election first).
 *
 * <pre>
 * java -cp ... org.spongefiles.tracker.TrackerMain --conf sponge-site.xml [-Dkey=value ...]
 * </pre>
 */
public final class TrackerMain {
  static final DaemonLauncher<MemoryTracker> LAUNCHER =
      new DaemonLauncher<>("sponge-tracker", TrackerMain.class, MemoryTracker::start);

  private TrackerMain() {}

  public static void main(String[] args) throws InterruptedException {
    LAUNCHER.run(args);
  }

  /** See {@link DaemonLauncher#launch}: null after one error line on {@code err}. */
  static MemoryTracker launch(List<String> args, PrintStream err) {
    return LAUNCHER.launch(args, err);
  }
}
