package org.spongefiles.bench.node;

import java.nio.file.Path;
import org.spongefiles.bench.median.MedianPlacement;

/**
 * A placement whose run works and spills where its node's placement puts them; it changes only how
 * the run's JVM starts and what its configuration says.
 */
abstract class InNodePlacement implements MedianPlacement {
  final NodePlacement node;

  InNodePlacement(NodePlacement node) {
    this.node = node;
  }

  @Override
  public Path workRoot(Path benchDir) {
    return node.workRoot(benchDir);
  }

  @Override
  public Path spillRoot(Path benchDir) {
    return node.spillRoot(benchDir);
  }
}
