package org.spongefiles.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.testkit.TestDirs;

/**
 * Real sponge servers on 127.0.0.1 for tests, each with its own small pool on /dev/shm and its own
 * node name, as if on separate nodes. Closing the fixture stops them and removes their files.
 */
final class ServerFixture implements AutoCloseable {
  static final int CHUNK = 64 << 10;

  private final List<SpongeServer> servers = new ArrayList<>();
  private final List<Path> dirs = new ArrayList<>();

  /** Configuration of a server on node {@code node} with a pool of {@code chunks} chunks. */
  Configuration serverConf(String node, int chunks) {
    Path poolDir = TestDirs.newShmDir("srv-" + node);
    dirs.add(poolDir);
    Configuration conf = new Configuration(false);
    int port = freePort();
    conf.set("sponge.node.id", node);
    conf.set("sponge.server.bind.host", "127.0.0.1");
    conf.setInt("sponge.server.port", port);
    conf.set("sponge.server.address", "127.0.0.1:" + port);
    conf.setInt("sponge.server.metrics.port", -1);
    conf.setBoolean("sponge.auth.none", true);
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.name", "pool");
    conf.set("sponge.pool.permissions", "rw-------");
    conf.set("sponge.pool.size", Long.toString((long) chunks * CHUNK));
    conf.set("sponge.chunk.size", Integer.toString(CHUNK));
    conf.set("sponge.server.reclaim.interval", "500ms");
    conf.set("sponge.server.shutdown.timeout", "2s");
    return conf;
  }

  SpongeServer start(Configuration conf) throws IOException {
    SpongeServer server = SpongeServer.start(conf);
    servers.add(server);
    return server;
  }

  SpongeServer start(String node, int chunks) throws IOException {
    return start(serverConf(node, chunks));
  }

  /**
   * A task's configuration: a small private pool of its own node, the given servers, then disk; no
   * write overflow.
   */
  Configuration clientConf(String node, int poolChunks, SpongeServer... remote) {
    Path poolDir = TestDirs.newShmDir("cli-" + node);
    Path diskDir = TestDirs.newShmDir("cli-disk-" + node);
    dirs.add(poolDir);
    dirs.add(diskDir);
    Configuration conf = new Configuration(false);
    conf.set("sponge.node.id", node);
    conf.set("sponge.server.address", "");
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.permissions", "rw-------");
    conf.set("sponge.pool.size", Long.toString(Math.max(1, poolChunks) * (long) CHUNK));
    conf.set("sponge.chunk.size", Integer.toString(CHUNK));
    conf.set("sponge.checksum.block.size", "16k");
    conf.set("sponge.tiers", poolChunks == 0 ? "remote,disk" : "pool,remote,disk");
    conf.set("sponge.disk.dirs", diskDir.toString());
    conf.set("sponge.disk.reserve", "0");
    // These tests assert where chunks land; with overflow a slow server would send some to the
    // disk depending on timing. WriteOverflowTest covers overflow.
    conf.setBoolean("sponge.write.overflow", false);
    // One I/O thread stores a file's chunks in file order, so which chunk lands where is known;
    // with more, neighbouring chunks race for a tier's last places. ConcurrentStoresTest uses two.
    conf.setInt("sponge.io.threads", 1);
    StringBuilder servers = new StringBuilder();
    for (SpongeServer server : remote) {
      servers.append(servers.length() == 0 ? "" : ",").append(server.endpoint());
    }
    conf.set("sponge.remote.servers", servers.toString());
    conf.set("sponge.remote.connect.timeout", "2s");
    conf.set("sponge.remote.io.timeout", "10s");
    return conf;
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    for (SpongeServer server : servers) {
      server.close();
    }
    for (Path dir : dirs) {
      TestDirs.deleteTree(dir);
    }
  }
}
