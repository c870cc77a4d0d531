/**
 * The Netty pipeline pieces of the daemons (TLS, frame decoder, server handshake, responses), used
 * by sponge-server and the tracker.
 *
 * <p>May import sponge-core's {@code wire} and {@code tls}; must not import any other package of
 * sponge-core. Tasks never load it: it is in sponge-daemon, and the task side (sponge-core) has no
 * Netty at all.
 */
package org.spongefiles.daemon.netty;
