/**
 * A rack in one JVM for the demo and the tests: an embedded ZooKeeper, a memory tracker and sponge
 * servers on private pools.
 */
package org.spongefiles.workloads.cluster;
