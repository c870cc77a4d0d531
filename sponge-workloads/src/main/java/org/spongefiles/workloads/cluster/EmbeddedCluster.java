package org.spongefiles.workloads.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.io.FileUtils;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.server.SpongeServer;
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
    conf.set("sponge.zookeeper.quorum", zookeeper.getConnectString());
    conf.set("sponge.rack", RACK);
    conf.set("sponge.node.id", node);
    conf.set("sponge.pool.permissions", "rw-------");
    return conf;
  }

  private Configuration serverConf(String node, long poolBytes) throws IOException {
    Configuration conf = base(node);
    int port = freePort();
    conf.set("sponge.server.bind.host", "127.0.0.1");
    conf.setInt("sponge.server.port", port);
    conf.set("sponge.server.address", "127.0.0.1:" + port);
    conf.setInt("sponge.server.metrics.port", -1);
    conf.setBoolean("sponge.auth.none", true);
    conf.set("sponge.pool.dir", Files.createDirectories(root.resolve(node)).toString());
    conf.set("sponge.pool.size", Long.toString(poolBytes));
    return conf;
  }

  private Configuration trackerConf() throws IOException {
    Configuration conf = base("tracker");
    int port = freePort();
    conf.set("sponge.tracker.bind.host", "127.0.0.1");
    conf.setInt("sponge.tracker.port", port);
    conf.set("sponge.tracker.address", "127.0.0.1:" + port);
    conf.setInt("sponge.tracker.metrics.port", -1);
    conf.setBoolean("sponge.auth.none", true);
    conf.set("sponge.tracker.poll.interval", "250ms");
    return conf;
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
    conf.set("sponge.pool.dir", Files.createDirectories(root.resolve(node)).toString());
    conf.set("sponge.pool.size", Long.toString(poolBytes));
    conf.set("sponge.disk.dirs", Files.createDirectories(diskRoot.resolve(node)).toString());
    conf.set("sponge.disk.reserve", "0");
    conf.set("sponge.tracker.addresses", tracker.endpoint());
    conf.set("sponge.server.address", "");
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

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
