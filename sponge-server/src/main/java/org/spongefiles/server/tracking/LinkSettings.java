package org.spongefiles.server.tracking;

import java.util.Objects;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.tls.TlsContext;
import org.spongefiles.core.wire.ClusterSecret;

/**
 * What a {@link LeaderLink} needs, parsed once by the server: who the server is, how it proves it,
 * and the sponge.tracker.report.* timing it shares with the trackers.
 */
public final class LinkSettings {
  final String endpoint;
  final String rack;
  final ClientIdentity identity;
  final ClusterSecret secret;
  final TlsContext tls; // null: plaintext
  final long intervalMillis;
  final long keepaliveMillis;
  final double threshold;
  final double nearlyFull;
  final long connectTimeoutMillis;

  /**
   * @param endpoint the server as registered in ZooKeeper (host:port)
   * @param tls the TLS context of the server's connections, null for plaintext
   * @param intervalMillis sponge.tracker.report.interval
   * @param keepaliveMillis sponge.tracker.report.keepalive
   * @param threshold sponge.tracker.report.threshold
   * @param nearlyFull sponge.tracker.nearly.full
   */
  public LinkSettings(
      String endpoint,
      String rack,
      ClientIdentity identity,
      ClusterSecret secret,
      TlsContext tls,
      long intervalMillis,
      long keepaliveMillis,
      double threshold,
      double nearlyFull,
      long connectTimeoutMillis) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint cannot be null");
    this.rack = Objects.requireNonNull(rack, "rack cannot be null");
    this.identity = Objects.requireNonNull(identity, "identity cannot be null");
    this.secret = secret;
    this.tls = tls;
    this.intervalMillis = intervalMillis;
    this.keepaliveMillis = keepaliveMillis;
    this.threshold = threshold;
    this.nearlyFull = nearlyFull;
    this.connectTimeoutMillis = connectTimeoutMillis;
  }
}
