/**
 * The node's shared memory pool: chunk files in a tmpfs (mapped by the sponge server, copied in and
 * out with positional reads and writes by tasks), the cross-process lock, owner entries, orphan
 * reclaim. Used by tasks (through the pool tier) and by the sponge server.
 *
 * <p>Owns: the pool's byte layout and every access to it. Takes a {@link
 * org.spongefiles.core.pool.PoolSpec}, never a configuration. May import {@code io} (for {@link
 * org.spongefiles.core.io.ReopeningChannel}); must not import any other package of SpongeFiles.
 */
package org.spongefiles.core.pool;
