package org.spongefiles.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * No cycle between the workloads' packages, read from the compiled classes by the JDK's jdeps: each
 * workload family ({@code median}, {@code leaky}, {@code pig}, {@code cluster}) may use the shared
 * report ({@code workloads}), never another family or the reverse.
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.workloads";

  @Test
  void thePackagesFormNoCycle() {
    PackageGraph graph = PackageGraph.of(BenchReport.class, ROOT);
    assertThat(graph.edges())
        .as("jdeps saw the packages")
        .containsKeys(
            ROOT + ".median", ROOT + ".index", ROOT + ".leaky", ROOT + ".pig", ROOT + ".cluster");
    for (String family : new String[] {"median", "index", "leaky", "pig", "cluster"}) {
      assertThat(graph.uses(ROOT + "." + family))
          .as("packages the %s workloads use", family)
          .isSubsetOf(ROOT);
    }
    assertThat(graph.uses(ROOT)).as("packages the shared report uses").isEmpty();
    assertThat(graph.cycles()).isEmpty();
  }
}
