/**
 * The cluster around a node: racks, ZooKeeper, the memory tracker as seen by tasks and servers, and
 * {@link org.spongefiles.core.cluster.ClusterOptions}, the keys they share. Its code takes the
 * values parsed where a task or daemon starts ({@link
 * org.spongefiles.core.cluster.ZooKeeperSettings}, a {@code ConfigValues}), never a {@code
 * Configuration} to read its keys from; a {@code Configuration} only for Hadoop's topology mapping.
 *
 * <p>Owns: server registration and discovery, the tracker client of a task. May import {@code
 * config}, {@code remote} and {@code wire}; must not import the root package, {@code tier} or
 * {@code pool}.
 */
package org.spongefiles.core.cluster;
