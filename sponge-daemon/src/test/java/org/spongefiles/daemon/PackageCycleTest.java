package org.spongefiles.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * No cycle between sponge-daemon's packages, read from the compiled classes by the JDK's jdeps: the
 * Netty pipeline pieces ({@code daemon.netty}) never use the launcher ({@code daemon}).
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.daemon";

  @Test
  void thePackagesFormNoCycle() {
    PackageGraph graph = PackageGraph.of(DaemonLauncher.class, ROOT);
    assertThat(graph.edges()).as("jdeps saw the packages").containsKeys(ROOT, ROOT + ".netty");
    assertThat(graph.uses(ROOT + ".netty")).as("packages the Netty pieces use").isEmpty();
    assertThat(graph.cycles()).isEmpty();
  }
}
