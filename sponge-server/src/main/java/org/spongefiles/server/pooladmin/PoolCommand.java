package org.spongefiles.server.pooladmin;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.pool.LeaseDirectory;
import org.spongefiles.core.pool.PoolSpec;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.daemon.DaemonArguments;
import org.spongefiles.daemon.MalformedSiteFileException;

/**
 * {@code bin/sponge pool rm [--pool-dir DIR] [--name NAME] [--conf sponge-site.xml] [-Dkey=value
 * ...]}: removes the pool's files (by default the pool of {@code sponge.pool.dir} and {@code
 * sponge.pool.name}). Exit 0 when removed, 1 when there is no such pool, 2 when live processes map
 * it (named by pid; nothing removed), 3 for a bad configuration, 64 for bad usage.
 */
public final class PoolCommand {
  static final int REMOVED = 0;
  static final int NO_POOL = 1;
  static final int IN_USE = 2;
  static final int BAD_CONFIGURATION = 3;
  static final int USAGE = 64;

  private static final String USAGE_LINE =
      "usage: sponge pool rm [--pool-dir DIR] [--name NAME] [-Dkey=value ...]";

  private PoolCommand() {}

  public static void main(String[] args) {
    System.exit(run(Arrays.asList(args), System.out, System.err, Path.of("/proc")));
  }

  static int run(List<String> args, PrintStream out, PrintStream err, Path proc) {
    if (args.isEmpty() || !args.get(0).equals("rm")) {
      err.println(USAGE_LINE);
      return USAGE;
    }
    String dir = null;
    String name = null;
    List<String> confArgs = new ArrayList<>();
    for (int i = 1; i < args.size(); i++) {
      String arg = args.get(i);
      if ((arg.equals("--pool-dir") || arg.equals("--name")) && i + 1 < args.size()) {
        if (arg.equals("--pool-dir")) {
          dir = args.get(++i);
        } else {
          name = args.get(++i);
        }
      } else {
        confArgs.add(arg);
      }
    }
    Path poolDir;
    String poolName;
    try {
      Configuration conf = DaemonArguments.parse(confArgs);
      poolDir = Path.of(dir != null ? dir : SpongeOptions.POOL_DIR.get(conf));
      poolName = PoolSpec.expandUser(name != null ? name : SpongeOptions.POOL_NAME.get(conf));
    } catch (MalformedSiteFileException | ConfigException e) {
      err.println("sponge: " + e.getMessage());
      return BAD_CONFIGURATION;
    } catch (IllegalArgumentException e) {
      err.println("sponge: " + e.getMessage());
      err.println(USAGE_LINE);
      return USAGE;
    }
    try {
      return remove(poolDir, poolName, out, err, proc);
    } catch (IOException e) {
      err.println("sponge: cannot remove pool " + poolName + " in " + poolDir + ": " + e);
      return BAD_CONFIGURATION;
    }
  }

  private static int remove(Path dir, String name, PrintStream out, PrintStream err, Path proc)
      throws IOException {
    List<Path> files = SharedPool.files(dir, name);
    if (files.isEmpty()) {
      err.println(
          "sponge: no pool " + name + " in " + dir + " (sponge.pool.dir, sponge.pool.name)");
      return NO_POOL;
    }
    Set<Long> users = PoolUsers.of(files, proc);
    if (!users.isEmpty()) {
      err.println(
          "sponge: pool "
              + name
              + " in "
              + dir
              + " is in use by live process(es) "
              + users
              + " (a sponge server or tasks); stop them first. Nothing removed.");
      return IN_USE;
    }
    long bytes = 0;
    for (Path file : files) {
      bytes += Files.size(file);
      Files.deleteIfExists(file);
    }
    removeUnusedLeases(dir);
    out.println(
        "removed pool "
            + name
            + " in "
            + dir
            + " ("
            + files.size()
            + " files, "
            + String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20))
            + ")");
    return REMOVED;
  }

  /**
   * Deletes the files of ended leases beside the removed pool, and their directory once no live
   * process holds a lease there (another pool of the directory, or a task, takes it again).
   */
  private static void removeUnusedLeases(Path dir) {
    LeaseDirectory leases = LeaseDirectory.beside(dir);
    leases.sweep();
    try {
      Files.deleteIfExists(leases.path());
    } catch (IOException e) {
      // Not empty (a live process holds a lease there) or not ours to delete: it stays.
    }
  }
}
