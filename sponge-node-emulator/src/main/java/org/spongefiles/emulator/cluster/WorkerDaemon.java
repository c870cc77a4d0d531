package org.spongefiles.emulator.cluster;

/**
 * The daemons of a worker that {@link HadoopCluster#kill} and {@link HadoopCluster#restart} act on:
 * Hadoop's (a JVM the cluster launched) and the distribution's (started by their {@code bin/}
 * script, found by its pid file).
 */
public enum WorkerDaemon {
  DATANODE("datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode", 128),
  NODEMANAGER("nodemanager", "org.apache.hadoop.yarn.server.nodemanager.NodeManager", 256),
  SPONGE_SERVER("server", null, 0),
  TRACKER("tracker", null, 0);

  /** Hadoop's daemon name, or the distribution's ({@code bin/sponge-<name>}). */
  final String name;

  /** Hadoop's main class; null for the distribution's daemons. */
  final String main;

  final int heapMb;

  WorkerDaemon(String name, String main, int heapMb) {
    this.name = name;
    this.main = main;
    this.heapMb = heapMb;
  }
}
