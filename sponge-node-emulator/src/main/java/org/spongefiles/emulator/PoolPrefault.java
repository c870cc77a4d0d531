package org.spongefiles.emulator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.testkit.ChildProcesses;

/**
 * Creates a node's pool and touches every page of it ({@link SharedPool#touchAll}) from outside any
 * {@link MemoryContainer}, as the node's sponge server does at start ({@code
 * sponge.server.pool.touch}): the benchmarks' task JVMs create the node's pool themselves when no
 * server runs on their node. The touch runs in a short child JVM: a JVM keeps a pool's mapping
 * until its garbage collector drops it, and a mapping keeps a deleted pool's pages, so a sweep that
 * touched a fresh 512m pool per run in its own JVM held them all (the Pig cells' 72 runs ran the
 * machine out of memory).
 */
public final class PoolPrefault {
  private PoolPrefault() {}

  /**
   * Opens (creating) the pool {@code conf}'s sponge.pool.* keys describe and touches all of it, in
   * a child JVM.
   *
   * @return the bytes touched
   */
  public static long prefault(Configuration conf) throws IOException {
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> entry : conf) {
      if (entry.getKey().startsWith("sponge.")) {
        args.add(entry.getKey() + "=" + entry.getValue());
      }
    }
    Process child =
        new ProcessBuilder(ChildProcesses.java(List.of("-Xmx64m"), PoolPrefault.class, args))
            .redirectErrorStream(true)
            .start();
    List<String> output = ChildProcesses.outputLines(child);
    int exit;
    try {
      exit = child.waitFor();
    } catch (InterruptedException e) {
      child.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted touching the pool", e);
    }
    String last = output.isEmpty() ? "" : output.get(output.size() - 1);
    if (exit != 0 || !last.startsWith("TOUCHED ")) {
      throw new IOException(
          "Touching the pool failed (exit " + exit + "): " + String.join("\n", output));
    }
    return Long.parseLong(last.substring("TOUCHED ".length()));
  }

  /**
   * {@code PoolPrefault key=value ...}: touches the pool the keys describe, prints TOUCHED bytes.
   */
  public static void main(String[] args) throws IOException {
    Configuration conf = new Configuration(false);
    for (String arg : args) {
      int eq = arg.indexOf('=');
      conf.set(arg.substring(0, eq), arg.substring(eq + 1));
    }
    try (SharedPool pool = SharedPool.open(SpongeSettings.poolSpec(ConfigValues.reading(conf)))) {
      System.out.println("TOUCHED " + pool.touchAll());
    }
  }
}
