package org.spongefiles.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * No cycle between the emulator's packages, read from the compiled classes by the JDK's jdeps: the
 * emulated Hadoop cluster ({@code emulator.cluster}) stands on the node emulator, never the
 * reverse.
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.emulator";

  @Test
  void thePackagesFormNoCycle() {
    PackageGraph graph = PackageGraph.of(Teardown.class, ROOT);
    assertThat(graph.edges()).as("jdeps saw the packages").containsKeys(ROOT, ROOT + ".cluster");
    assertThat(graph.uses(ROOT)).as("packages the node emulator uses").isEmpty();
    assertThat(graph.cycles()).isEmpty();
  }
}
