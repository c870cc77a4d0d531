package org.spongefiles.bag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * The packages of pig-databag form layers, read from the compiled classes by the JDK's jdeps: the
 * bags and the entry points ({@code bag}) stand on the spill runs ({@code bag.run}), which stand on
 * the task's resources ({@code bag.task}); who fills a bag ({@code bag.filler}) stands on nothing.
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.bag";
  private static final String RUN = ROOT + ".run";
  private static final String TASK = ROOT + ".task";
  private static final String FILLER = ROOT + ".filler";

  private static PackageGraph graph() {
    return PackageGraph.of(SpongeBagFactory.class, ROOT);
  }

  @Test
  void thePackagesOfTheBagsFormNoCycle() {
    PackageGraph graph = graph();
    assertThat(graph.edges()).as("jdeps saw the packages").containsKeys(ROOT, RUN, TASK, FILLER);
    assertThat(graph.cycles()).isEmpty();
  }

  @Test
  void eachLayerUsesOnlyTheLayersBelowIt() {
    PackageGraph graph = graph();
    assertThat(graph.uses(ROOT)).as("the bags use").contains(RUN, TASK, FILLER);
    assertThat(graph.uses(RUN)).as("the runs use").containsExactly(TASK);
    assertThat(graph.uses(TASK)).as("the task's resources use").containsExactly(FILLER);
    assertThat(graph.uses(FILLER)).as("who fills a bag uses").isEmpty();
  }
}
