/**
 * The memory tracker daemon: trackers elect a leader in ZooKeeper; the leader takes the sponge
 * servers' free-space reports and pushes each rack's list of servers with free memory to that
 * rack's servers (and answers tasks whose node has no server).
 *
 * <p>Imports sponge-core and sponge-daemon only; no module imports it.
 */
package org.spongefiles.tracker;
