package org.spongefiles.emulator.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** What an emulated cluster is made of; {@link #smoke} sizes one for a 2-core CI machine. */
public final class ClusterSettings {
  /** The unpacked distribution ({@code spongefiles-<version>/}), installed on every node. */
  public final Path spongeHome;

  /** The jars of the Hadoop release under test, installed on every node as Hadoop's lib. */
  public final List<Path> hadoopJars;

  /** Where the run directory is made (it is named {@code spongebench-<pid>-cluster}). */
  public final Path parent;

  public final int racks;
  public final int workersPerRack;
  public final long linkBitsPerSecond;

  /** Each worker's pool (a tmpfs of its own), shared by its sponge server and its tasks. */
  public final long poolBytes;

  /** What each NodeManager offers YARN. */
  public final int nodeManagerMb;

  /**
   * The README's mapred-site.xml snippet, written into every node's mapred-site.xml with this
   * cluster's values for the trackers, the secret file and the pool size, and without {@code
   * sponge.rack}; each worker adds its own {@code sponge.pool.dir}, as final.
   */
  public final Map<String, String> taskSite;

  public ClusterSettings(
      Path spongeHome,
      List<Path> hadoopJars,
      Path parent,
      int racks,
      int workersPerRack,
      long linkBitsPerSecond,
      long poolBytes,
      int nodeManagerMb,
      Map<String, String> taskSite) {
    this.spongeHome = spongeHome;
    this.hadoopJars = List.copyOf(hadoopJars);
    this.parent = parent;
    this.racks = racks;
    this.workersPerRack = workersPerRack;
    this.linkBitsPerSecond = linkBitsPerSecond;
    this.poolBytes = poolBytes;
    this.nodeManagerMb = nodeManagerMb;
    this.taskSite = Map.copyOf(taskSite);
  }

  /**
   * Two racks of two workers on 1 Gbit/s links, 8 MiB pools, 3 GiB per NodeManager (YARN's view;
   * the small jobs use far less).
   */
  public static ClusterSettings smoke(
      Path spongeHome, List<Path> hadoopJars, Path parent, Map<String, String> taskSite) {
    return new ClusterSettings(
        spongeHome, hadoopJars, parent, 2, 2, 1_000_000_000L, 8L << 20, 3072, taskSite);
  }
}
