package org.spongefiles.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The cycle search finds a cycle and only the cycle, and jdeps reads a real module's packages. */
class PackageGraphTest {

  @Test
  void aCycleIsFound() {
    PackageGraph graph =
        PackageGraph.of(
            Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a")));
    assertThat(graph.cycles()).containsExactly(List.of("a", "b", "c"));
  }

  @Test
  void aChainIsNoCycle() {
    PackageGraph graph = PackageGraph.of(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of()));
    assertThat(graph.cycles()).isEmpty();
  }

  @Test
  void jdepsReadsTheKitsOwnPackages() {
    PackageGraph graph = PackageGraph.of(PackageGraph.class, "org.spongefiles.testkit");
    assertThat(graph.linesUsing("org.apache.hadoop"))
        .as("jdeps saw the kit's use of Hadoop")
        .anyMatch(line -> line.startsWith("org.spongefiles.testkit.mapreduce "));
    assertThat(graph.cycles()).isEmpty();
  }
}
