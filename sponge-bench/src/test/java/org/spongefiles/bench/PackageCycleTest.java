package org.spongefiles.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * No cycle between the benchmark families' packages, read from the compiled classes by the JDK's
 * jdeps: the shared helpers ({@code bench}) use no family, and no family uses {@code node}, which
 * runs the others' measurements on emulated nodes.
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.bench";

  @Test
  void thePackagesFormNoCycle() {
    PackageGraph graph = PackageGraph.of(Contention.class, ROOT);
    assertThat(graph.edges())
        .as("jdeps saw the packages")
        .containsKeys(
            ROOT,
            ROOT + ".dashboard",
            ROOT + ".leaky",
            ROOT + ".median",
            ROOT + ".node",
            ROOT + ".pig",
            ROOT + ".transfer");
    assertThat(graph.uses(ROOT)).as("packages the shared helpers use").isEmpty();
    graph
        .edges()
        .forEach(
            (pkg, uses) ->
                assertThat(uses).as("packages %s uses", pkg).doesNotContain(ROOT + ".node"));
    assertThat(graph.cycles()).isEmpty();
  }
}
