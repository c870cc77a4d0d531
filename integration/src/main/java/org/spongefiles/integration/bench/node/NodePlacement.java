package org.spongefiles.integration.bench.node;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.integration.bench.median.MedianPlacement;

/**
 * Puts {@link org.spongefiles.integration.bench.median.MedianBench}'s runs on an emulated node: the
 * work directory (Hadoop's local directories, our disk tier) on the node's disk, the run's JVM in a
 * {@link MemoryContainer} of the cell's limit (none when the host has no containers), and the pool
 * prefaulted from outside the container before our run starts ({@link PoolPrefault}).
 */
final class NodePlacement implements MedianPlacement, Closeable {
  private final Path workRoot;
  private final MemoryContainer container;

  NodePlacement(Path workRoot, MemoryContainer container) {
    this.workRoot = workRoot;
    this.container = container;
  }

  @Override
  public Path workRoot(Path benchDir) {
    return workRoot;
  }

  @Override
  public List<String> command(List<String> javaCommand) {
    return container == null ? javaCommand : container.wrap(javaCommand);
  }

  @Override
  public void prepare(Map<String, String> conf) throws IOException {
    Files.createDirectories(workRoot);
    if (container != null && conf.containsKey("sponge.pool.dir")) {
      Configuration hadoop = new Configuration(false);
      conf.forEach(hadoop::set);
      PoolPrefault.prefault(hadoop);
    }
  }

  /** The most the container used (0 without one). */
  long maxUsage() throws IOException {
    return container == null ? 0 : container.maxUsage();
  }

  @Override
  public void close() throws IOException {
    if (container != null) {
      container.close();
    }
  }
}
