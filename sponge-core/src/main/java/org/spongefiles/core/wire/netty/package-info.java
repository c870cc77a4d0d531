/**
 * The Netty pipeline pieces of the daemons (frame decoder, server handshake, responses), used by
 * sponge-server and the tracker.
 *
 * <p>May import {@code wire}; must not import any other package of sponge-core. Tasks never load
 * it.
 */
package org.spongefiles.core.wire.netty;
