package org.spongefiles.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * No cycle between the leaky reducer's packages: the MapReduce helpers and the baselines stand on
 * the table, never the reverse.
 */
class PackageCycleTest {

  @Test
  void thePackagesFormNoCycle() {
    PackageGraph graph = PackageGraph.of(LeakyHashTable.class, "org.spongefiles.leaky");
    assertThat(graph.edges())
        .as("jdeps saw the packages")
        .containsKeys("org.spongefiles.leaky.mapreduce");
    assertThat(graph.cycles()).isEmpty();
  }
}
