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
    this.address = address;
    this.rack = rack;
    this.poolBytes = poolBytes;
    this.usedBytes = usedBytes;
    this.freeBytes = freeBytes;
    this.localTaskBytes = localTaskBytes;
    this.remoteTaskBytes = remoteTaskBytes;
    this.connections = connections;
    this.topTasks = List.copyOf(topTasks);
    this.error = null;
    this.detailed = true;
  }

  private ServerStatus(
      String address, String rack, long poolBytes, long usedBytes, long freeBytes) {
    this.address = address;
    this.rack = rack;
    this.poolBytes = poolBytes;
    this.usedBytes = usedBytes;
    this.freeBytes = freeBytes;
    this.localTaskBytes = 0;
    this.remoteTaskBytes = 0;
    this.connections = 0;
    this.topTasks = List.of();
    this.error = null;
    this.detailed = false;
  }

  /** A server that answered STATS but publishes no metrics port. */
  static ServerStatus withoutMetrics(
      String address, String rack, long poolBytes, long usedBytes, long freeBytes) {
    return new ServerStatus(address, rack, poolBytes, usedBytes, freeBytes);
  }

  private ServerStatus(String address, String rack, String error) {
    this.address = address;
    this.rack = rack;
    this.poolBytes = 0;
    this.usedBytes = 0;
    this.freeBytes = 0;
    this.localTaskBytes = 0;
    this.remoteTaskBytes = 0;
    this.connections = 0;
    this.topTasks = List.of();
    this.error = error;
    this.detailed = false;
  }

  static ServerStatus unreachable(String address, String rack, String error) {
    return new ServerStatus(address, rack, error);
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
