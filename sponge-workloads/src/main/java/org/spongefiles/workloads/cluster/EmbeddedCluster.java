package org.spongefiles.workloads.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.io.FileUtils;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.tracker.MemoryTracker;

/**
 * A rack on one machine, for the demo: an embedded ZooKeeper, sponge servers standing for the other
 * nodes of the rack (each with its own pool, registered in ZooKeeper), and a memory tracker that
 * polls them, all on 127.0.0.1 in this JVM. {@link #taskConf} configures a task on a further node
 * of the same rack: its own small pool first, then the servers the tracker lists, then disk.
 */
public final class EmbeddedCluster implements Closeable {
  public static final String RACK = "/demo-rack";

  private final TestingServer zookeeper;
  private final Path root;
  private final Path diskRoot;
  private final List<SpongeServer> servers = new ArrayList<>();
  private MemoryTracker tracker;

  private EmbeddedCluster(TestingServer zookeeper, Path root, Path diskRoot) {
    this.zookeeper = zookeeper;
    this.root = root;
    this.diskRoot = diskRoot;
  }

  /** Starts ZooKeeper, {@code servers} sponge servers with {@code poolBytes} each, a tracker. */
  public static EmbeddedCluster start(int servers, long poolBytes) throws Exception {
    Path shm = Path.of("/dev/shm");
    Path root =
        Files.createTempDirectory(
            Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of("/tmp"),
            "sponge-demo-");
    // Pools live in tmpfs like production's; the tasks' disk tier on a real disk (java.io.tmpdir).
    Path diskRoot = Files.createTempDirectory("sponge-demo-disk-");
    EmbeddedCluster cluster = new EmbeddedCluster(new TestingServer(), root, diskRoot);
    try {
      for (int i = 1; i <= servers; i++) {
        cluster.servers.add(SpongeServer.start(cluster.serverConf("node-" + i, poolBytes)));
      }
      cluster.tracker = MemoryTracker.start(cluster.trackerConf());
      cluster.awaitFreeList(servers, Duration.ofSeconds(30));
      return cluster;
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
  }

  /** What every daemon and task shares: ZooKeeper and the rack. */
  private Configuration base(String node) {
    Configuration conf = new Configuration(false);
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, zookeeper.getConnectString());
    ClusterOptions.RACK.set(conf, RACK);
    SpongeOptions.NODE_ID.set(conf, node);
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    return conf;
  }

  private Configuration serverConf(String node, long poolBytes) throws IOException {
    return SpongeTestConf.loopbackServer(
        base(node), node, Files.createDirectories(root.resolve(node)), poolBytes);
  }

  private Configuration trackerConf() {
    return SpongeTestConf.loopbackTracker(base("tracker"), "tracker", "250ms");
  }

  /**
   * Sets into {@code conf} what a task on node {@code node} of the rack needs: a pool of {@code
   * poolBytes} of its own, the tracker, and local disk under this cluster's directory.
   */
  public Configuration taskConf(Configuration conf, String node, long poolBytes)
      throws IOException {
    for (var entry : base(node)) {
      conf.set(entry.getKey(), entry.getValue());
    }
    SpongeOptions.POOL_DIR.set(conf, Files.createDirectories(root.resolve(node)).toString());
    SpongeOptions.POOL_SIZE.set(conf, poolBytes);
    SpongeOptions.DISK_DIRS.set(
        conf, List.of(Files.createDirectories(diskRoot.resolve(node)).toString()));
    SpongeOptions.DISK_RESERVE.set(conf, 0L);
    ClusterOptions.TRACKER_ADDRESSES.set(conf, List.of(tracker.endpoint()));
    SpongeOptions.SERVER_ADDRESS.set(conf, "");
    return conf;
  }

  /** The rack's free list as the leader tracker answers it now. */
  public FreeList freeList() throws IOException {
    ClientIdentity self =
        new ClientIdentity(
            "",
            ProcessLiveness.currentPid(),
            ProcessLiveness.currentStartMillis(),
            ChunkOwner.taskHash("demo"),
            "demo");
    try (RemoteConnection connection =
        RemoteConnection.open(
            ServerAddress.parse(tracker.endpoint()),
            self,
            null,
            Duration.ofSeconds(5),
            Duration.ofSeconds(5))) {
      return connection.freeList(RACK);
    }
  }

  private void awaitFreeList(int expected, Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      try {
        if (freeList().servers.size() == expected) {
          return;
        }
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the tracker did not list " + expected + " servers within " + within);
      }
      Thread.sleep(100);
    }
  }

  public List<SpongeServer> servers() {
    return List.copyOf(servers);
  }

  public MemoryTracker tracker() {
    return tracker;
  }

  public String zookeeper() {
    return zookeeper.getConnectString();
  }

  /** Where the pools live (deleted on close). */
  public Path root() {
    return root;
  }

  @Override
  public void close() throws IOException {
    if (tracker != null) {
      tracker.close();
    }
    for (SpongeServer server : servers) {
      server.close();
    }
    servers.clear();
    zookeeper.close();
    FileUtils.deleteDirectory(root.toFile());
    FileUtils.deleteDirectory(diskRoot.toFile());
  }
}
