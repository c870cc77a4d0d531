/**
 * A sponge server's side of the memory tracker: it follows the trackers' election in ZooKeeper
 * ({@link org.spongefiles.server.tracking.LeaderWatch}), reports its free space to the leader and
 * keeps its rack's list, from which it answers its own tasks' free-list requests ({@link
 * org.spongefiles.server.tracking.LeaderLink}); as one of its rack's two relays it forwards the
 * leader's list to the rack's other servers ({@link org.spongefiles.server.tracking.PeerRelay}) and
 * carries their reports to the leader in batches, and as one of the others it sends its reports to
 * its relay ({@link org.spongefiles.server.tracking.RelayUplink}).
 *
 * <p>Imports sponge-core and sponge-daemon only.
 */
package org.spongefiles.server.tracking;
