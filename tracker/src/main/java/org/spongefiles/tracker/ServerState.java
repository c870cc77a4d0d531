package org.spongefiles.tracker;

import org.spongefiles.core.cluster.ServerRegistration;
import org.spongefiles.core.wire.ServerStats;

/** What the leader learned about one registered server in its last poll. */
final class ServerState {
  final ServerRegistration registration;
  final ServerStats stats;
  final String problem;

  private ServerState(ServerRegistration registration, ServerStats stats, String problem) {
    this.registration = registration;
    this.stats = stats;
    this.problem = problem;
  }

  static ServerState up(ServerRegistration registration, ServerStats stats) {
    return new ServerState(registration, stats, null);
  }

  static ServerState down(ServerRegistration registration, String problem) {
    return new ServerState(registration, null, problem);
  }

  boolean isUp() {
    return stats != null;
  }

  String rack() {
    return registration.rack();
  }

  String endpoint() {
    return registration.address().toString();
  }

  long freeBytes() {
    return stats == null ? 0 : stats.freeBytes();
  }
}
