package org.spongefiles.integration.bench.median;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where {@link MedianBench} puts a run: its work directory (Hadoop's local directories and ours'
 * disk tier go under it) and how its JVM starts. The default keeps both on this machine as they
 * are; the node sweep ({@code bench.node.NodeSweep}) puts the work directory on an emulated disk
 * and the JVM in a memory container.
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

  /** The command that starts the run's JVM, given the plain {@code java ...} command. */
  List<String> command(List<String> javaCommand);

  /**
   * Called with the run's configuration (sponge.* and Hadoop keys) before its JVM starts; the run
   * gets the configuration as this leaves it (the node sweep's remote cell adds its rack's
   * servers).
   */
  void prepare(Map<String, String> conf) throws IOException;
}
