/**
 * What the two daemons (sponge server, memory tracker) share to run from a command line: {@link
 * org.spongefiles.daemon.DaemonArguments} reads {@code --conf} files and {@code -D} overrides;
 * {@link org.spongefiles.daemon.DaemonLauncher} starts one, prints one READY line and waits for
 * SIGTERM, or prints a one-line configuration error and exits 2; {@link
 * org.spongefiles.daemon.DaemonAdmin} is the health check of {@code bin/sponge-* status}; {@link
 * org.spongefiles.daemon.MetricsEndpoint} serves a daemon's metrics.
 *
 * <p>Owns: the command-line life of a daemon, not what it serves. Lives in sponge-daemon, outside
 * the sponge-core jar every task loads; may import sponge-core, never the other way round.
 */
package org.spongefiles.daemon;
