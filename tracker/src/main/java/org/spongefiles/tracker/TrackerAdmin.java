package org.spongefiles.tracker;

import org.apache.hadoop.net.NetworkTopology;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.DaemonAdmin;

/**
 * Asks a running tracker for a rack's free list: the health check of {@code bin/sponge-tracker
 * status}. A leader prints the list, a follower names its leader; both exit 0. Exits 1 when the
 * tracker does not answer.
 *
 * <p>The rack asked about is {@code sponge.rack} of the configuration given, else /default-rack.
 *
 * <pre>
 * java -cp ... org.spongefiles.tracker.TrackerAdmin host:port [--conf sponge-site.xml] [-Dkey=value]
 * </pre>
 */
public final class TrackerAdmin {
  private TrackerAdmin() {}

  public static void main(String[] args) {
    DaemonAdmin.run(
        args,
        TrackerAdmin.class,
        (connection, conf) -> {
          String explicit = ClusterOptions.RACK.get(conf);
          String rack = explicit.isEmpty() ? NetworkTopology.DEFAULT_RACK : explicit;
          try {
            return "leader; " + connection.freeList(rack);
          } catch (WireException e) {
            if (e.code() != ErrorCode.NOT_LEADER) {
              throw e;
            }
            return "follower; leader " + (e.reason().isEmpty() ? "(electing)" : e.reason());
          }
        });
  }
}
