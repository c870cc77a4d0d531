package org.spongefiles.core;

import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.testkit.SpongeTestConf;

/**
 * A task in a JVM without ZooKeeper's classes (as on Hadoop's task classpath) whose tracker does
 * not answer: spills {@code chunks} chunks and prints its counters. Arguments: pool dir, disk dir,
 * tracker address, ZooKeeper quorum.
 */
public final class NoZooKeeperChild {
  private NoZooKeeperChild() {}

  public static void main(String[] args) throws Exception {
    Configuration conf =
        SpongeTestConf.of(Path.of(args[0]), Path.of(args[1]), 128L << 10, 64L << 10);
    conf.set(SpongeOptions.TIERS.key(), "pool,remote,disk");
    SpongeOptions.WRITE_OVERFLOW.set(conf, false);
    conf.set(ClusterOptions.TRACKER_ADDRESSES.key(), args[2]);
    ClusterOptions.TRACKER_REFRESH.set(conf, Duration.ofMillis(10));
    SpongeOptions.REMOTE_CONNECT_TIMEOUT.set(conf, Duration.ofMillis(200));
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, args[3]);
    try (SpongeTask task = SpongeTask.open(conf, "attempt_1_0001_r_000009_0")) {
      for (int round = 0; round < 4; round++) {
        SpongeFile file = task.create("spill-" + round);
        try (OutputStream out = file.output()) {
          out.write(new byte[5 * (64 << 10)]);
        }
        file.delete();
        Thread.sleep(20);
      }
      System.out.println("COUNTERS " + task.stats().asCounters());
    }
  }
}
