package org.spongefiles.server;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestResources;

/**
 * Real sponge servers on 127.0.0.1 for tests, each with its own small pool on /dev/shm and its own
 * node name, as if on separate nodes. Closing the fixture stops them and removes their files.
 *
 * <p>A test registers it with {@code @RegisterExtension final ServerFixture fixture = new
 * ServerFixture();} and it closes after each test, after the test's own {@code @AfterEach} methods,
 * so those can still close clients of its servers first.
 */
final class ServerFixture implements AutoCloseable, AfterEachCallback {
  static final int CHUNK = 64 << 10;

  private final TestResources resources = new TestResources();

  /** Configuration of a server on node {@code node} with a pool of {@code chunks} chunks. */
  Configuration serverConf(String node, int chunks) {
    Configuration conf =
        SpongeTestConf.loopbackServer(
            new Configuration(false), node, resources.shmDir("srv-" + node), (long) chunks * CHUNK);
    SpongeOptions.POOL_NAME.set(conf, "pool");
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    SpongeOptions.CHUNK_SIZE.set(conf, (long) CHUNK);
    ServerOptions.SHUTDOWN_TIMEOUT.set(conf, Duration.ofSeconds(2));
    return conf;
  }

  SpongeServer start(Configuration conf) throws IOException {
    return resources.add(SpongeServer.start(conf));
  }

  SpongeServer start(String node, int chunks) throws IOException {
    return start(serverConf(node, chunks));
  }

  /**
   * A task's configuration: a small private pool of its own node, the given servers, then disk; no
   * write overflow.
   */
  Configuration clientConf(String node, int poolChunks, SpongeServer... remote) {
    Path poolDir = resources.shmDir("cli-" + node);
    Path diskDir = resources.shmDir("cli-disk-" + node);
    Configuration conf = new Configuration(false);
    SpongeOptions.NODE_ID.set(conf, node);
    SpongeOptions.SERVER_ADDRESS.set(conf, "");
    SpongeOptions.POOL_DIR.set(conf, poolDir.toString());
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    SpongeOptions.POOL_SIZE.set(conf, Math.max(1, poolChunks) * (long) CHUNK);
    SpongeOptions.CHUNK_SIZE.set(conf, (long) CHUNK);
    conf.set(SpongeOptions.CHECKSUM_BLOCK_SIZE.key(), "16k");
    conf.set(SpongeOptions.TIERS.key(), poolChunks == 0 ? "remote,disk" : "pool,remote,disk");
    conf.set(SpongeOptions.DISK_DIRS.key(), diskDir.toString());
    SpongeOptions.DISK_RESERVE.set(conf, 0L);
    // These tests assert where chunks land; with overflow a slow server would send some to the
    // disk depending on timing. WriteOverflowTest covers overflow.
    SpongeOptions.WRITE_OVERFLOW.set(conf, false);
    // One I/O thread stores a file's chunks in file order, so which chunk lands where is known;
    // with more, neighbouring chunks race for a tier's last places. ConcurrentStoresTest uses two.
    SpongeOptions.IO_THREADS.set(conf, 1);
    StringBuilder servers = new StringBuilder();
    for (SpongeServer server : remote) {
      servers.append(servers.length() == 0 ? "" : ",").append(server.endpoint());
    }
    conf.set(SpongeOptions.REMOTE_SERVERS.key(), servers.toString());
    SpongeOptions.REMOTE_CONNECT_TIMEOUT.set(conf, Duration.ofSeconds(2));
    SpongeOptions.REMOTE_IO_TIMEOUT.set(conf, Duration.ofSeconds(10));
    return conf;
  }

  /**
   * A task's connection to {@code server} as {@code identity}, joining the session of {@code
   * ticket} (empty for a new one); closed when the fixture closes, before the servers.
   */
  RemoteConnection connect(SpongeServer server, ClientIdentity identity, byte[] ticket)
      throws IOException {
    return resources.add(
        RemoteConnection.open(
            ServerAddress.parse(server.endpoint()),
            identity,
            null,
            Duration.ofSeconds(2),
            Duration.ofSeconds(10),
            ticket));
  }

  /** A new empty file, removed when the fixture closes (a child JVM's stderr, a site file). */
  Path tempFile(String prefix, String suffix) {
    return resources.tempFile(prefix, suffix);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  /** Stops the servers, last started first, and removes their files. */
  @Override
  public void close() {
    resources.close();
  }
}
