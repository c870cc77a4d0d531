package org.spongefiles.bench.median;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where {@link MedianBench} puts a run: its work directory (Hadoop's local directories, where the
 * maps write their outputs), the reducer's spill directory (Hadoop's merger's local directory and
 * ours' disk tier) and how its JVM starts. The default keeps all on this machine as they are; the
 * node sweep ({@code bench.node.NodeSweep}) puts the spill directory on an emulated disk and the
 * JVM in a memory container.
 */
public interface MedianPlacement {
  /** Runs where they always ran: under the bench directory, in a plain child JVM. */
  MedianPlacement HERE =
      new MedianPlacement() {
        @Override
        public Path workRoot(Path benchDir) {
          return benchDir;
        }

        @Override
        public List<String> command(List<String> javaCommand) {
          return javaCommand;
        }

        @Override
        public void prepare(Map<String, String> conf) {}
      };

  /** The directory the run's work directory goes in. */
  Path workRoot(Path benchDir);

  /**
   * The directory the run's reduce-side spills go in: the reducer's own disk. On a cluster the map
   * outputs a reducer fetches come from other nodes, so only its spills use this disk. By default
   * the work directory's.
   */
  default Path spillRoot(Path benchDir) {
    return workRoot(benchDir);
  }

  /** The command that starts the run's JVM, given the plain {@code java ...} command. */
  List<String> command(List<String> javaCommand);

  /**
   * Called with the run's configuration (sponge.* and Hadoop keys) before its JVM starts; the run
   * gets the configuration as this leaves it (the node sweep's remote cell adds its rack's
   * servers).
   */
  void prepare(Map<String, String> conf) throws IOException;
}
