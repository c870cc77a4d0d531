package org.spongefiles.server.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The rack report of {@code bin/sponge status}: the tracker leader and every registered server. */
public final class RackStatus {
  /** The exit codes, for monitoring checks. */
  public static final int OK = 0;

  public static final int LEADER_MISSING = 1;
  public static final int SERVER_UNREACHABLE = 2;
  public static final int OTHER_FAILURE = 3;
  public static final int USAGE = 64;

  /** How many of the largest holders the report lists. */
  static final int TOP_TASKS = 10;

  /** The leading tracker's endpoint, or null when no tracker leads. */
  public final String leader;

  /**
   * Why no tracker leads although one holds the election (its process is gone and its ZooKeeper
   * session has not expired yet), or null.
   */
  public final String leaderProblem;

  public final List<ServerStatus> servers;

  RackStatus(String leader, String leaderProblem, List<ServerStatus> servers) {
    this.leader = leader;
    this.leaderProblem = leaderProblem;
    List<ServerStatus> sorted = new ArrayList<>(servers);
    sorted.sort(Comparator.comparing((ServerStatus s) -> s.rack).thenComparing(s -> s.address));
    this.servers = List.copyOf(sorted);
  }

  /** The tasks holding the most pool bytes over all servers, most first. */
  public List<ServerStatus.TaskHolding> topTasks() {
    List<ServerStatus.TaskHolding> all = new ArrayList<>();
    for (ServerStatus server : servers) {
      all.addAll(server.topTasks);
    }
    all.sort(
        Comparator.comparingLong((ServerStatus.TaskHolding t) -> t.bytes)
            .reversed()
            .thenComparing(t -> t.task));
    return all.subList(0, Math.min(TOP_TASKS, all.size()));
  }

  /** 0 when all is well, 1 without a leader, else 2 when a server did not answer. */
  public int exitCode() {
    if (leader == null) {
      return LEADER_MISSING;
    }
    for (ServerStatus server : servers) {
      if (!server.reachable()) {
        return SERVER_UNREACHABLE;
      }
    }
    return OK;
  }
}
