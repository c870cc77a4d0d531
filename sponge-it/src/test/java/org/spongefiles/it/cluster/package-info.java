/**
 * The tarball on an emulated multi-node Hadoop cluster (sponge-node-emulator's {@code
 * HadoopCluster}, as root): jobs submitted through Hadoop's client on the cluster's master, stock
 * and with SpongeFiles, their answers and the servers' own view of the chunks checked.
 */
package org.spongefiles.it.cluster;
