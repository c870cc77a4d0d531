package org.spongefiles.workloads.pig;

import java.util.List;

/**
 * How a {@link PigJvm} child ended: the queries it finished, in order, and whether it finished them
 * all; when not, why (exit code and the tail of its log).
 */
public final class PigAttempt {
  private final List<QueryRun> runs;
  private final List<String> held;
  private final boolean finished;
  private final int exitCode;
  private final String failure;

  PigAttempt(
      List<QueryRun> runs, List<String> held, boolean finished, int exitCode, String failure) {
    this.runs = List.copyOf(runs);
    this.held = List.copyOf(held);
    this.finished = finished;
    this.exitCode = exitCode;
    this.failure = failure;
  }

  /** The queries the child finished, in the order it ran them. */
  public List<QueryRun> runs() {
    return runs;
  }

  /**
   * One line per finished job when asked for ({@link PigJvm#reportHeldAfterJobs()}): {@code
   * job=<id>} and the live instances of each class holding a task's SpongeFiles, {@code
   * <class>=<count>}, once they were gone or 0.5 s after Pig said the job finished.
   */
  public List<String> held() {
    return held;
  }

  /** Whether the child finished every query and exited normally. */
  public boolean finished() {
    return finished;
  }

  /**
   * Why the child did not finish, with the tail of its log and the last of its other output lines
   * (where the JVM says why {@code -XX:+ExitOnOutOfMemoryError} ended it); empty when it did.
   */
  public String failure() {
    return failure;
  }

  /**
   * Why the child did not finish, in one line: its exit code and the innermost cause {@link
   * #failure()} names (the last "Caused by", with the first frame outside the JDK), else the last
   * line naming an exception or error; empty when it finished.
   */
  public String reason() {
    if (finished) {
      return "";
    }
    String cause = null;
    String thrownAt = null;
    String lastError = null;
    for (String raw : failure.split("\n")) {
      String line = raw.trim();
      if (line.startsWith("Caused by: ")) {
        cause = line.substring("Caused by: ".length());
        thrownAt = null;
      } else if (cause != null
          && thrownAt == null
          && line.startsWith("at ")
          && !line.startsWith("at java.")) {
        thrownAt = line.substring("at ".length());
      } else if (line.contains("Exception") || line.contains("Error")) {
        lastError = line;
      }
    }
    String why =
        cause != null
            ? cause + (thrownAt != null ? " at " + thrownAt : "")
            : lastError != null ? lastError : "no exception in its log's tail";
    return "exited " + exitCode + ": " + why;
  }
}
