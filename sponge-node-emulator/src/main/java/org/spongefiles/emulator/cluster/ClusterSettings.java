package org.spongefiles.emulator.cluster;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.spongefiles.emulator.DiskClass;
import org.spongefiles.emulator.EmulatedDisk;
import org.spongefiles.emulator.Neighbours;

/** What an emulated cluster is made of; {@link #smoke} sizes one for a 2-core CI machine. */
public final class ClusterSettings {
  private static final Pattern WORKER = Pattern.compile("rack([1-9][0-9]*)-node([1-9][0-9]*)");

  /** The unpacked distribution ({@code spongefiles-<version>/}), installed on every node. */
  public final Path spongeHome;

  /** The jars of the Hadoop release under test, installed on every node as Hadoop's lib. */
  public final List<Path> hadoopJars;

  /** Where the run directory is made (it is named {@code spongebench-<pid>-cluster}). */
  public final Path parent;

  public final int racks;
  public final int workersPerRack;
  public final long linkBitsPerSecond;

  /** Per rack (from 1): each worker's pool, a tmpfs shared by its sponge server and its tasks. */
  private final long[] poolBytes;

  /** Per rack (from 1): what each NodeManager offers YARN. */
  private final int[] nodeManagerMb;

  /** Per worker host: what its NodeManager offers YARN instead of its rack's size. */
  private final Map<String, Integer> hostNodeManagerMb;

  /**
   * The class of each worker's own disk (an {@link EmulatedDisk} holding its YARN local
   * directories, where spills to disk go, and its DataNode's blocks), or null for the run directory
   * on the host's disk.
   */
  public final DiskClass disk;

  /** Each worker disk's size. */
  public final long diskBytes;

  /** Neighbours on each worker's disk ({@link Neighbours} level: 0 quiet, 1 or 3 contended). */
  public final int neighbours;

  /**
   * The README's mapred-site.xml snippet, written into every node's mapred-site.xml with this
   * cluster's values for the trackers, the secret file and the pool size, and without {@code
   * sponge.rack}; each worker adds its own {@code sponge.pool.dir}, as final.
   */
  public final Map<String, String> taskSite;

  /**
   * Keys every sponge server's sponge-site.xml gets beside the cluster's own (a quota, say); empty
   * by default.
   */
  public final Map<String, String> serverSite;

  private ClusterSettings(
      Path spongeHome,
      List<Path> hadoopJars,
      Path parent,
      int racks,
      int workersPerRack,
      long linkBitsPerSecond,
      long[] poolBytes,
      int[] nodeManagerMb,
      DiskClass disk,
      long diskBytes,
      int neighbours,
      Map<String, String> taskSite,
      Map<String, String> serverSite,
      Map<String, Integer> hostNodeManagerMb) {
    if (poolBytes.length != racks || nodeManagerMb.length != racks) {
      throw new IllegalArgumentException(
          "pool sizes and NodeManager sizes: one per rack, "
              + racks
              + " (got "
              + poolBytes.length
              + " and "
              + nodeManagerMb.length
              + ")");
    }
    this.spongeHome = spongeHome;
    this.hadoopJars = List.copyOf(hadoopJars);
    this.parent = parent;
    this.racks = racks;
    this.workersPerRack = workersPerRack;
    this.linkBitsPerSecond = linkBitsPerSecond;
    this.poolBytes = poolBytes.clone();
    this.nodeManagerMb = nodeManagerMb.clone();
    this.disk = disk;
    this.diskBytes = diskBytes;
    this.neighbours = neighbours;
    this.taskSite = Map.copyOf(taskSite);
    this.serverSite = Map.copyOf(serverSite);
    this.hostNodeManagerMb = Map.copyOf(hostNodeManagerMb);
  }

  /**
   * Two racks of two workers on 1 Gbit/s links, 8 MiB pools, 3 GiB per NodeManager (YARN's view;
   * the small jobs use far less).
   */
  public static ClusterSettings smoke(
      Path spongeHome, List<Path> hadoopJars, Path parent, Map<String, String> taskSite) {
    return new ClusterSettings(
        spongeHome,
        hadoopJars,
        parent,
        2,
        2,
        1_000_000_000L,
        new long[] {8L << 20, 8L << 20},
        new int[] {3072, 3072},
        null,
        0,
        0,
        taskSite,
        Map.of(),
        Map.of());
  }

  /** These settings with rack {@code rack}'s pools and NodeManagers sized anew. */
  public ClusterSettings withRack(int rack, long rackPoolBytes, int rackNodeManagerMb) {
    long[] pools = poolBytes.clone();
    int[] nodeManagers = nodeManagerMb.clone();
    pools[rack - 1] = rackPoolBytes;
    nodeManagers[rack - 1] = rackNodeManagerMb;
    return copy(pools, nodeManagers, disk, diskBytes, neighbours, serverSite, hostNodeManagerMb);
  }

  /**
   * These settings with every worker's own disk of {@code diskClass} ({@code bytes}, sparse) and
   * {@code level} neighbours on it.
   */
  public ClusterSettings withDisks(DiskClass diskClass, long bytes, int level) {
    return copy(poolBytes, nodeManagerMb, diskClass, bytes, level, serverSite, hostNodeManagerMb);
  }

  /** These settings with {@code keys} in every sponge server's sponge-site.xml. */
  public ClusterSettings withServerSite(Map<String, String> keys) {
    return copy(poolBytes, nodeManagerMb, disk, diskBytes, neighbours, keys, hostNodeManagerMb);
  }

  /**
   * These settings with the NodeManager of worker {@code host} ({@code rack<r>-node<n>}) offering
   * YARN {@code mb} MiB instead of its rack's size: a rack whose tasks all run on one of its nodes.
   */
  public ClusterSettings withNodeManager(String host, int mb) {
    Matcher worker = WORKER.matcher(host);
    if (!worker.matches()
        || Integer.parseInt(worker.group(1)) > racks
        || Integer.parseInt(worker.group(2)) > workersPerRack) {
      throw new IllegalArgumentException(
          "No worker "
              + host
              + " in a cluster of "
              + racks
              + " racks of "
              + workersPerRack
              + " workers (rack<r>-node<n>, both from 1)");
    }
    Map<String, Integer> hosts = new HashMap<>(hostNodeManagerMb);
    hosts.put(host, mb);
    return copy(poolBytes, nodeManagerMb, disk, diskBytes, neighbours, serverSite, hosts);
  }

  private ClusterSettings copy(
      long[] pools,
      int[] nodeManagers,
      DiskClass diskClass,
      long bytes,
      int level,
      Map<String, String> servers,
      Map<String, Integer> hosts) {
    return new ClusterSettings(
        spongeHome,
        hadoopJars,
        parent,
        racks,
        workersPerRack,
        linkBitsPerSecond,
        pools,
        nodeManagers,
        diskClass,
        bytes,
        level,
        taskSite,
        servers,
        hosts);
  }

  /** The pool size of rack {@code rack}'s workers. */
  public long poolBytes(int rack) {
    return poolBytes[rack - 1];
  }

  /** What rack {@code rack}'s NodeManagers offer YARN, in MiB. */
  public int nodeManagerMb(int rack) {
    return nodeManagerMb[rack - 1];
  }

  /** What {@code worker}'s NodeManager offers YARN, in MiB: its own size, else its rack's. */
  public int nodeManagerMb(ClusterNode worker) {
    return hostNodeManagerMb.getOrDefault(worker.host, nodeManagerMb(worker.rack));
  }
}
