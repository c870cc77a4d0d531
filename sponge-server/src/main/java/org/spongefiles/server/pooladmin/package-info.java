/**
 * {@code bin/sponge pool rm}, which {@code bin/sponge-server stop} also runs: removes a node's pool
 * files from tmpfs, refusing while a live process (the server, a task) still maps them.
 *
 * <p>Imports sponge-core's pool and sponge-daemon; only the scripts and tests use it.
 */
package org.spongefiles.server.pooladmin;
