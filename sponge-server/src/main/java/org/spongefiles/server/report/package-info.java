/**
 * {@code bin/sponge status|report}: collects the rack's state from ZooKeeper (the trackers' leader
 * latch, registered servers) and each server's metrics endpoint, and prints it as a table or JSON
 * with monitoring exit codes. Reads only; changes nothing on the rack.
 *
 * <p>Imports sponge-core and sponge-daemon (not {@code org.spongefiles.server}: it reads a server
 * as any client does); only the {@code bin/sponge} script, the end-to-end tests and the dashboard
 * plot use it.
 */
package org.spongefiles.server.report;
