package org.spongefiles.it.pig;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.spongefiles.workloads.pig.PigJvm;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * Pig children (each its own JVM, heap and directories) run side by side, which nearly halves a
 * test's time on two cores; the tests compare what each answers and counts, never its time.
 */
final class SideBySide {
  private SideBySide() {}

  /** Runs every child to its end at once; what each reported, in the order given. */
  static List<List<QueryRun>> run(PigJvm... children) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(children.length);
    try {
      List<Future<List<QueryRun>>> runs = new ArrayList<>();
      for (PigJvm child : children) {
        runs.add(pool.submit(child::run));
      }
      List<List<QueryRun>> reported = new ArrayList<>();
      for (Future<List<QueryRun>> run : runs) {
        reported.add(run.get());
      }
      return reported;
    } finally {
      pool.shutdownNow();
    }
  }
}
