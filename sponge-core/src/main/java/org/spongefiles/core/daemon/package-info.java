/**
 * What the two daemons (sponge server, memory tracker) share to run from a command line: {@link
 * org.spongefiles.core.daemon.DaemonLauncher} starts one, prints one READY line and waits for
 * SIGTERM, or prints a one-line configuration error and exits 2; {@link
 * org.spongefiles.core.daemon.DaemonAdmin} is the health check of {@code bin/sponge-* status}.
 *
 * <p>Owns: the command-line life of a daemon, not what it serves. Must not be imported by the
 * packages a task uses.
 */
package org.spongefiles.core.daemon;
