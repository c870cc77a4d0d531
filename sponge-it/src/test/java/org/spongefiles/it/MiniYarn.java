package org.spongefiles.it;

import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/** The one-node MapReduce-on-YARN cluster the end-to-end tests run their jobs on. */
public final class MiniYarn {
  private MiniYarn() {}

  /**
   * Starts a cluster named {@code name}: one node manager with 4 GiB, no virtual-memory check, and
   * containers from 128 MiB; the caller stops it.
   */
  public static MiniMRYarnCluster start(String name) {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    // Hadoop 3.3's MRAppMaster (Guice 4.0) needs java.lang opened on Java 17 (hadoop-3.3 profile).
    conf.set(
        "yarn.app.mapreduce.am.command-opts",
        "-Xmx1024m --add-opens=java.base/java.lang=ALL-UNNAMED");
    MiniMRYarnCluster cluster = new MiniMRYarnCluster(name, 1);
    cluster.init(conf);
    cluster.start();
    return cluster;
  }
}
