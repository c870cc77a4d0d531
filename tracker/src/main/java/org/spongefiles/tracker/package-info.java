/**
 * The memory tracker daemon: polls the sponge servers of the cluster, elects a leader in ZooKeeper
 * and tells tasks which servers have free memory, nearest rack first.
 *
 * <p>Imports sponge-core and sponge-daemon only; no module imports it.
 */
package org.spongefiles.tracker;
