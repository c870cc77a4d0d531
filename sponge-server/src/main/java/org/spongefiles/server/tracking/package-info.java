/**
 * A sponge server's side of the memory tracker: it follows the trackers' election in ZooKeeper
 * ({@link org.spongefiles.server.tracking.LeaderWatch}), reports its free space to the leader and
 * keeps the rack list the leader pushes, from which it answers its own tasks' free-list requests
 * ({@link org.spongefiles.server.tracking.LeaderLink}).
 *
 * <p>Imports sponge-core and sponge-daemon only.
 */
package org.spongefiles.server.tracking;
