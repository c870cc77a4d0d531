package org.spongefiles.server;

import org.spongefiles.daemon.DaemonAdmin;

/**
 * Asks a running sponge server for its pool statistics over the wire protocol: the health check of
 * {@code bin/sponge-server status}. Exits 0 and prints the statistics when the server answers, 1
 * with the reason when it does not.
 *
 * <pre>
 * java -cp ... org.spongefiles.server.ServerAdmin host:port [--conf sponge-site.xml] [-Dkey=value]
 * </pre>
 */
public final class ServerAdmin {
  private ServerAdmin() {}

  public static void main(String[] args) {
    DaemonAdmin.run(args, ServerAdmin.class, (connection, conf) -> connection.stats().toString());
  }
}
