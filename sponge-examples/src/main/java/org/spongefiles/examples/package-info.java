/**
 * A runnable demonstration: an embedded cluster (ZooKeeper, sponge servers, tracker) and a job
 * spilling through it.
 *
 * <p>May import every module; no module imports it.
 */
package org.spongefiles.examples;
