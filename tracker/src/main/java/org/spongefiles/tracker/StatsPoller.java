package org.spongefiles.tracker;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.remote.ConnectionPool;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.wire.ServerStats;

/**
 * One poll round of the leader: ask every registered server for its pool statistics, in parallel
 * over kept-open connections. A server that does not answer within the poll timeout is counted down
 * for this round.
 */
final class StatsPoller {
  private final ServerDirectory directory;
  private final ConnectionPool connections;
  private final ExecutorService pollers;
  private final long timeoutMillis;

  StatsPoller(
      ServerDirectory directory,
      ConnectionPool connections,
      ExecutorService pollers,
      long timeoutMillis) {
    this.directory = directory;
    this.connections = connections;
    this.pollers = pollers;
    this.timeoutMillis = timeoutMillis;
  }

  ClusterView round() throws InterruptedException {
    long start = System.nanoTime();
    List<ServerRegistration> registered = directory.servers();
    List<Future<ServerState>> answers = new ArrayList<>(registered.size());
    for (ServerRegistration server : registered) {
      answers.add(pollers.submit(() -> poll(server)));
    }
    List<ServerState> states = new ArrayList<>(registered.size());
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2 * timeoutMillis);
    for (int i = 0; i < answers.size(); i++) {
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        states.add(answers.get(i).get(left, TimeUnit.NANOSECONDS));
      } catch (TimeoutException e) {
        answers.get(i).cancel(true);
        states.add(ServerState.down(registered.get(i), "no answer within the poll timeout"));
      } catch (ExecutionException e) {
        states.add(ServerState.down(registered.get(i), String.valueOf(e.getCause())));
      }
    }
    return new ClusterView(states, System.currentTimeMillis(), System.nanoTime() - start);
  }

  private ServerState poll(ServerRegistration server) {
    RemoteConnection connection = null;
    try {
      connection = connections.borrow(server.address());
      ServerStats stats = connection.stats();
      return ServerState.up(server, stats);
    } catch (IOException | RuntimeException e) {
      connections.forget(server.address());
      return ServerState.down(server, e.getMessage());
    } finally {
      if (connection != null) {
        connections.giveBack(connection);
      }
    }
  }
}
