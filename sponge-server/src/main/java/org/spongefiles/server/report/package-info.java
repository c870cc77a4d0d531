/**
 * {@code bin/sponge status|report}: collects the rack's state from ZooKeeper (the trackers' leader
 * latch, registered servers) and each server's metrics endpoint, and prints it as a table or JSON
 * with monitoring exit codes. Reads only; changes nothing on the rack.
 *
 * <p>Imports sponge-core, sponge-daemon and {@code org.spongefiles.server}; only the {@code
 * bin/sponge} script, the integration tests and the dashboard plot use it.
 */
package org.spongefiles.server.report;
