/**
 * The protocol between tasks, sponge servers and the memory tracker: frames, opcodes, their codecs,
 * the HELLO and challenge of the handshake, and the cluster secret.
 *
 * <p>Owns: the bytes on the wire, nothing about sockets. May import {@code config} and {@code pool}
 * (chunk handles); must not import the root package, {@code tier}, {@code remote} or {@code
 * cluster}.
 */
package org.spongefiles.core.wire;
