/**
 * The memory tracker at cluster scale: thousands of simulated sponge servers (real {@code
 * LeaderLink}s over real sockets, in one JVM) and a hundred thousand simulated task sessions
 * against a leader tracker in its own JVM ({@link
 * org.spongefiles.bench.tracker.TrackerScaleBench}).
 */
package org.spongefiles.bench.tracker;
