package org.spongefiles.server.tracking;

import java.io.Closeable;
import java.util.List;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.RelayedList;

/**
 * A server's connections to its rack peers for tracking: where a relay forwards the rack lists the
 * leader hands it, and where a server sends its reports to its relay ({@link PeerRelay} over the
 * peers' data ports; the scale benchmark's simulated servers in process). Called on the {@link
 * LeaderLink}'s event loop only.
 */
public interface RelayTargets extends Closeable {
  /**
   * Forwards {@code relayed} to every server of its list but {@code self} (the other relay too: the
   * leader sends it a list only about once a second), and lets go of servers no longer listed.
   */
  void forward(RelayedList relayed, String self);

  /**
   * Sends this server's {@code report} to the first of {@code relays} (never this server) that can
   * take it now.
   *
   * @return false when none can yet (connecting, refused, unreachable): the caller reports to the
   *     leader itself
   */
  boolean report(List<String> relays, FreeReport report);

  /** Lets go of every peer (this server is no longer a relay, or is closing). */
  @Override
  void close();
}
