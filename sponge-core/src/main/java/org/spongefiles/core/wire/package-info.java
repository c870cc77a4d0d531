/**
 * The protocol between tasks, sponge servers and the memory tracker: frames, opcodes, their codecs,
 * the HELLO and challenge of the handshake, and the cluster secret.
 *
 * <p>Owns: the bytes on the wire, nothing about sockets, and {@link ChunkHandle}, the protocol's
 * own name for a lent chunk (the server maps it to its pool). Imports no other package of
 * sponge-core.
 */
package org.spongefiles.core.wire;
