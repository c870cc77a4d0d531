package org.spongefiles.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/**
 * Hadoop configurations for tests: a private pool and private disk directories; a sponge server and
 * a memory tracker on 127.0.0.1. The keys are written out here because the test kit cannot depend
 * on the modules declaring them (their tests depend on it); code above those modules sets keys
 * through the typed options.
 */
public final class SpongeTestConf {
  private SpongeTestConf() {}

  /**
   * A configuration whose pool lives in {@code poolDir} ({@code poolBytes} bytes of {@code
   * chunkBytes} chunks) and whose disk chunks go to {@code diskDir}, with no disk reserve.
   */
  public static Configuration of(Path poolDir, Path diskDir, long poolBytes, long chunkBytes) {
    Configuration conf = new Configuration(false);
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.name", "test-pool");
    conf.set("sponge.pool.size", Long.toString(poolBytes));
    conf.set("sponge.pool.segment.size", Long.toString(Math.min(poolBytes, 64L << 20)));
    conf.set("sponge.pool.permissions", "rw-------");
    conf.set("sponge.chunk.size", Long.toString(chunkBytes));
    conf.set("sponge.checksum.block.size", Long.toString(Math.min(chunkBytes, 16L << 10)));
    conf.set("sponge.disk.dirs", diskDir.toString());
    conf.set("sponge.disk.reserve", "0");
    return conf;
  }

  /**
   * Sets in {@code conf} a sponge server of node {@code node} on 127.0.0.1 at a free port, with no
   * metrics port and no authentication, its pool of {@code poolBytes} bytes in {@code poolDir},
   * reclaiming orphans every 500 ms; returns {@code conf}.
   */
  public static Configuration loopbackServer(
      Configuration conf, String node, Path poolDir, long poolBytes) {
    int port = freePort();
    conf.set("sponge.node.id", node);
    conf.set("sponge.server.bind.host", "127.0.0.1");
    conf.setInt("sponge.server.port", port);
    conf.set("sponge.server.address", "127.0.0.1:" + port);
    conf.setInt("sponge.server.metrics.port", -1);
    conf.setBoolean("sponge.auth.none", true);
    conf.set("sponge.pool.dir", poolDir.toString());
    conf.set("sponge.pool.size", Long.toString(poolBytes));
    conf.set("sponge.server.reclaim.interval", "500ms");
    return conf;
  }

  /**
   * Sets in {@code conf} a memory tracker of node {@code node} on 127.0.0.1 at a free port, with no
   * metrics port and no authentication, polling the servers every {@code pollInterval} (such as
   * {@code 250ms}); returns {@code conf}. The ZooKeeper keys are the caller's.
   */
  public static Configuration loopbackTracker(
      Configuration conf, String node, String pollInterval) {
    int port = freePort();
    conf.set("sponge.node.id", node);
    conf.set("sponge.tracker.bind.host", "127.0.0.1");
    conf.setInt("sponge.tracker.port", port);
    conf.set("sponge.tracker.address", "127.0.0.1:" + port);
    conf.setInt("sponge.tracker.metrics.port", -1);
    conf.setBoolean("sponge.auth.none", true);
    conf.set("sponge.tracker.leader.check.interval", pollInterval);
    return conf;
  }

  /** A TCP port nobody listened on a moment ago. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
