package org.spongefiles.integration.pig;

import java.util.List;

/**
 * How a {@link PigJvm} child ended: the queries it finished, in order, and whether it finished them
 * all; when not, why (exit code and the tail of its log).
 */
public final class PigAttempt {
  private final List<QueryRun> runs;
  private final boolean finished;
  private final String failure;

  PigAttempt(List<QueryRun> runs, boolean finished, String failure) {
    this.runs = List.copyOf(runs);
    this.finished = finished;
    this.failure = failure;
  }

  /** The queries the child finished, in the order it ran them. */
  public List<QueryRun> runs() {
    return runs;
  }

  /** Whether the child finished every query and exited normally. */
  public boolean finished() {
    return finished;
  }

  /** Why the child did not finish; empty when it did. */
  public String failure() {
    return failure;
  }
}
