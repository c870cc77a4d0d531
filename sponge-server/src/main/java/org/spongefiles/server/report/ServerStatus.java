package org.spongefiles.server.report;

import java.util.List;

/**
 * One sponge server's row of the rack report; {@code error} is set when it could not be read. A
 * server without a metrics port still reports its pool (from STATS over the wire protocol); what
 * only its metrics say (the bytes tasks hold, its connections, its top tasks) is then unknown and
 * {@link #detailed} false.
 */
public final class ServerStatus {
  public final String address;
  public final String rack;
  public final long poolBytes;
  public final long usedBytes;
  public final long freeBytes;
  public final long localTaskBytes;
  public final long remoteTaskBytes;
  public final long connections;
  public final List<TaskHolding> topTasks;
  public final String error;

  /** True when the server's metrics were read; false leaves the task bytes and connections 0. */
  public final boolean detailed;

  /** A server whose STATS and metrics were both read. */
  ServerStatus(
      String address,
      String rack,
      long poolBytes,
      long usedBytes,
      long freeBytes,
      long localTaskBytes,
      long remoteTaskBytes,
      long connections,
      List<TaskHolding> topTasks) {
    this(
        address,
        rack,
        new long[] {poolBytes, usedBytes, freeBytes, localTaskBytes, remoteTaskBytes, connections},
        topTasks,
        null,
        true);
  }

  /**
   * @param sizes pool, used, free, local task and remote task bytes, then connections
   */
  private ServerStatus(
      String address,
      String rack,
      long[] sizes,
      List<TaskHolding> topTasks,
      String error,
      boolean detailed) {
    this.address = address;
    this.rack = rack;
    this.poolBytes = sizes[0];
    this.usedBytes = sizes[1];
    this.freeBytes = sizes[2];
    this.localTaskBytes = sizes[3];
    this.remoteTaskBytes = sizes[4];
    this.connections = sizes[5];
    this.topTasks = List.copyOf(topTasks);
    this.error = error;
    this.detailed = detailed;
  }

  /** A server that answered STATS but publishes no metrics port. */
  static ServerStatus withoutMetrics(
      String address, String rack, long poolBytes, long usedBytes, long freeBytes) {
    return new ServerStatus(
        address,
        rack,
        new long[] {poolBytes, usedBytes, freeBytes, 0, 0, 0},
        List.of(),
        null,
        false);
  }

  static ServerStatus unreachable(String address, String rack, String error) {
    return new ServerStatus(address, rack, new long[6], List.of(), error, false);
  }

  /** Bytes held by tasks (of this node and of others), from the pool's owner entries. */
  public long reservedBytes() {
    return localTaskBytes + remoteTaskBytes;
  }

  public boolean reachable() {
    return error == null;
  }

  /** A task and the pool bytes it holds on one server. */
  public static final class TaskHolding {
    public final String task;
    public final String server;
    public final long bytes;

    TaskHolding(String task, String server, long bytes) {
      this.task = task;
      this.server = server;
      this.bytes = bytes;
    }
  }
}
