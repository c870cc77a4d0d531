/**
 * The sponge server, the node daemon that owns the node's pool, lends its free chunks to tasks of
 * other nodes, checks their owners' liveness and reclaims orphans.
 *
 * <p>Imports sponge-core and sponge-daemon only; no module imports it.
 */
package org.spongefiles.server;
