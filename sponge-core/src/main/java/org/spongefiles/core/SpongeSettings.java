package org.spongefiles.core;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.PoolSpec;
import org.spongefiles.core.remote.RemoteSettings;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ClusterSecret;

/**
 * Builds the typed values the packages below take from sponge-core's parsed keys (a {@link
 * ConfigValues}: the edge, a task or a daemon, parsed each key once), so that the pool, tier,
 * remote and wire code never reads configuration. Each builder throws {@link ConfigException}
 * naming the key and the value it cannot use.
 */
public final class SpongeSettings {
  private SpongeSettings() {}

  /** The pool described by the parsed {@code sponge.pool.*} and {@code sponge.chunk.size}. */
  public static PoolSpec poolSpec(ConfigValues conf) {
    return new PoolSpec(
        Path.of(conf.get(SpongeOptions.POOL_DIR)),
        PoolSpec.expandUser(conf.get(SpongeOptions.POOL_NAME)),
        conf.get(SpongeOptions.POOL_SIZE),
        conf.get(SpongeOptions.CHUNK_SIZE).intValue(),
        conf.get(SpongeOptions.POOL_SEGMENT_SIZE),
        conf.get(SpongeOptions.POOL_CREATE),
        conf.get(SpongeOptions.POOL_PERMISSIONS),
        conf.get(SpongeOptions.POOL_LOCK_TIMEOUT));
  }

  /**
   * The directories from the parsed {@code sponge.disk.dirs}, or Hadoop's local dirs in {@code
   * conf}, or hadoop.tmp.dir.
   */
  public static List<Path> diskDirs(ConfigValues values, Configuration conf) {
    List<Path> dirs = new ArrayList<>();
    for (String dir : values.get(SpongeOptions.DISK_DIRS)) {
      dirs.add(Path.of(dir));
    }
    if (!dirs.isEmpty()) {
      return dirs;
    }
    String[] local = conf.getTrimmedStrings("mapreduce.cluster.local.dir");
    if (local.length > 0) {
      for (String dir : local) {
        dirs.add(Path.of(stripScheme(dir), "spongefiles"));
      }
      return dirs;
    }
    String tmp = conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir"));
    dirs.add(Path.of(stripScheme(tmp), "spongefiles"));
    return dirs;
  }

  private static String stripScheme(String dir) {
    return dir.startsWith("file:") ? URI.create(dir).getPath() : dir;
  }

  /**
   * The secret from the parsed {@code sponge.auth.secret.file} (preferred) or {@code
   * sponge.auth.secret}, or null when neither is set. The file is read each call: call it once and
   * pass the secret on.
   *
   * @throws ConfigException when the secret is set but unusable
   */
  public static ClusterSecret clusterSecret(ConfigValues conf) {
    String file = conf.get(SpongeOptions.AUTH_SECRET_FILE);
    if (!file.isEmpty()) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(Path.of(file));
      } catch (IOException e) {
        throw new ConfigException(
            SpongeOptions.AUTH_SECRET_FILE.key(), file, "cannot be read (" + e.getMessage() + ")");
      }
      String text = new String(bytes, StandardCharsets.UTF_8).trim();
      if (text.length() < ClusterSecret.MIN_BYTES) {
        throw new ConfigException(
            SpongeOptions.AUTH_SECRET_FILE.key(),
            file,
            "holds "
                + text.length()
                + " characters; a secret needs at least "
                + ClusterSecret.MIN_BYTES);
      }
      return ClusterSecret.of(text.getBytes(StandardCharsets.UTF_8));
    }
    String inline = conf.get(SpongeOptions.AUTH_SECRET);
    if (inline.isEmpty()) {
      return null;
    }
    if (inline.length() < ClusterSecret.MIN_BYTES) {
      throw new ConfigException(
          SpongeOptions.AUTH_SECRET.key(),
          "(hidden)",
          "has "
              + inline.length()
              + " characters; a secret needs at least "
              + ClusterSecret.MIN_BYTES);
    }
    return ClusterSecret.of(inline.getBytes(StandardCharsets.UTF_8));
  }

  /** The parsed {@code sponge.remote.*} settings of a remote tier. */
  public static RemoteSettings remote(ConfigValues conf) {
    List<ServerAddress> servers = new ArrayList<>();
    for (String entry : conf.get(SpongeOptions.REMOTE_SERVERS)) {
      try {
        servers.add(ServerAddress.parse(entry));
      } catch (IllegalArgumentException e) {
        throw new ConfigException(SpongeOptions.REMOTE_SERVERS.key(), entry, e.getMessage());
      }
    }
    return new RemoteSettings(
        servers,
        conf.get(SpongeOptions.REMOTE_CONNECT_TIMEOUT),
        conf.get(SpongeOptions.REMOTE_IO_TIMEOUT),
        conf.get(SpongeOptions.REMOTE_CONNECTIONS),
        conf.get(SpongeOptions.REMOTE_ALLOCATE_BATCH),
        conf.get(SpongeOptions.REMOTE_REFUSAL_BACKOFF),
        conf.get(SpongeOptions.REMOTE_FAILURE_BACKOFF),
        conf.get(SpongeOptions.REMOTE_ENCRYPT));
  }

  /**
   * This node's sponge server as remote servers should reach it to check a task's liveness: the
   * parsed {@code sponge.server.address}, else the node name and {@code sponge.server.port}.
   */
  public static String nodeServerEndpoint(ConfigValues conf, String nodeName) {
    String explicit = conf.get(SpongeOptions.SERVER_ADDRESS);
    if (!explicit.isEmpty()) {
      try {
        return ServerAddress.parse(explicit).toString();
      } catch (IllegalArgumentException e) {
        throw new ConfigException(SpongeOptions.SERVER_ADDRESS.key(), explicit, e.getMessage());
      }
    }
    return nodeName + ":" + conf.get(SpongeOptions.SERVER_PORT);
  }
}
