package org.spongefiles.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;

/** The one-node MapReduce-on-YARN cluster the end-to-end tests run their jobs on. */
public final class MiniYarn {
  private MiniYarn() {}

  /**
   * Starts a cluster named {@code name}: one node manager with 4 GiB, no virtual-memory check, and
   * containers from 128 MiB; the caller stops it.
   *
   * <p>The other settings only take out waiting that is not work. A job client built on this
   * cluster's configuration sees its job end within 100 ms, not Hadoop's 5 s completion poll. The
   * node manager and each application master heartbeat every 250 ms (as the emulated cluster's node
   * managers do), not every second: each round of container requests (master, maps, reduces, a
   * retried attempt) waited for both. Half the node may hold application masters, so a test's next
   * job starts its master while the last job's one is still exiting (about 6 s after it
   * unregistered), not after it. Container logs are deleted when their application ends: with
   * Hadoop's three hours, the stopping node manager waits 10 s for the pending deletions
   * (NonAggregatingLogHandler).
   */
  public static MiniMRYarnCluster start(String name) {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 100);
    conf.setFloat(
        CapacitySchedulerConfiguration.MAXIMUM_APPLICATION_MASTERS_RESOURCE_PERCENT, 0.5f);
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 250);
    conf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 250);
    // Hadoop 3.3's MRAppMaster (Guice 4.0) needs java.lang opened on Java 17 (hadoop-3.3 profile).
    conf.set(
        "yarn.app.mapreduce.am.command-opts",
        "-Xmx1024m --add-opens=java.base/java.lang=ALL-UNNAMED");
    MiniMRYarnCluster cluster = new MiniMRYarnCluster(name, 1);
    cluster.init(conf);
    cluster.start();
    return cluster;
  }

  /**
   * Sizes a job for this cluster's containers, with a small shuffle so that its reducers spill and
   * one split per input file; returns {@code conf}. Its client looks for the job's end every 100
   * ms: with Hadoop's 5 s, a job time measured around {@code waitForCompletion} (the emulated
   * cluster's benchmarks) is rounded up to the client's next look, up to 5 s of a 30 s job.
   */
  public static Configuration smallJob(Configuration conf) {
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 100);
    conf.setLong("mapreduce.reduce.memory.totalbytes", 4L << 20);
    conf.setInt("mapreduce.task.io.sort.mb", 16);
    conf.setInt("mapreduce.map.memory.mb", 256);
    conf.set("mapreduce.map.java.opts", "-Xmx180m");
    conf.setInt("mapreduce.reduce.memory.mb", 384);
    conf.set("mapreduce.reduce.java.opts", "-Xmx256m");
    conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    conf.setLong("mapreduce.input.fileinputformat.split.minsize", Long.MAX_VALUE);
    return conf;
  }
}
