package org.spongefiles.bench.node;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.bench.median.MedianPlacement;
import org.spongefiles.emulator.MemoryContainer;
import org.spongefiles.emulator.PoolPrefault;

/**
 * Puts {@link org.spongefiles.bench.median.MedianBench}'s runs on an emulated node: the reducer's
 * spills (Hadoop's merger's local directory, our disk tier) on the node's disk, the run's JVM in a
 * {@link MemoryContainer} of the cell's limit (none when the host has no containers), and the pool
 * prefaulted from outside the container before our run starts ({@link PoolPrefault}).
 *
 * <p>The job's own local directories, where the maps write the outputs the reducer fetches, stay in
 * the bench directory off the node's disk ({@link #spillsOnDisk}): on a cluster those outputs come
 * from other nodes, so reading them must not compete with the reducer's spills for its disk, nor
 * shrink its page cache. Pig's cells put everything on the node's disk ({@link #allOnDisk}).
 */
final class NodePlacement implements MedianPlacement, Closeable {
  private final Path workRoot;
  private final Path spillRoot;
  private final MemoryContainer container;

  private NodePlacement(Path workRoot, Path spillRoot, MemoryContainer container) {
    this.workRoot = workRoot;
    this.spillRoot = spillRoot;
    this.container = container;
  }

  /** The reducer's spills under {@code spillRoot}, the job's local directories in the bench's. */
  static NodePlacement spillsOnDisk(Path spillRoot, MemoryContainer container) {
    return new NodePlacement(null, spillRoot, container);
  }

  /** Every directory of a run under {@code root}. */
  static NodePlacement allOnDisk(Path root, MemoryContainer container) {
    return new NodePlacement(root, root, container);
  }

  @Override
  public Path workRoot(Path benchDir) {
    return workRoot != null ? workRoot : benchDir;
  }

  @Override
  public Path spillRoot(Path benchDir) {
    return spillRoot;
  }

  @Override
  public List<String> command(List<String> javaCommand) {
    return container == null ? javaCommand : container.wrap(javaCommand);
  }

  @Override
  public void prepare(Map<String, String> conf) throws IOException {
    Files.createDirectories(spillRoot);
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
