/**
 * The remote tier: a task's chunks in the pools of sponge servers over the network, with the client
 * connections, their handshake and the servers to try.
 *
 * <p>Owns: the client side of the protocol. Takes {@link
 * org.spongefiles.core.remote.RemoteSettings}, never a configuration. May import {@code tier} and
 * {@code wire} (chunks are named by {@link org.spongefiles.core.wire.ChunkHandle}); must not import
 * the root package, {@code pool}, {@code cluster} or {@code stats}.
 */
package org.spongefiles.core.remote;
