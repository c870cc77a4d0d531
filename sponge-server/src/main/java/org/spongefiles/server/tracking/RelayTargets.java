package org.spongefiles.server.tracking;

import java.io.Closeable;
import org.spongefiles.core.wire.RelayedList;

/**
 * Where a relay forwards the rack lists the leader hands it: to the rack's other servers ({@link
 * PeerRelay} over their data ports; the scale benchmark's simulated servers in process). Called on
 * the {@link LeaderLink}'s event loop only.
 */
public interface RelayTargets extends Closeable {
  /**
   * Forwards {@code relayed} to every server of its list but {@code self} and the relays named in
   * it, and lets go of servers no longer listed.
   */
  void forward(RelayedList relayed, String self);

  /** Lets go of every peer (this server is no longer a relay, or is closing). */
  @Override
  void close();
}
