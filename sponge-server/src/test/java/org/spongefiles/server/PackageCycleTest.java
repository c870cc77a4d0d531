package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * No cycle between sponge-server's packages, read from the compiled classes by the JDK's jdeps: the
 * status report ({@code server.report}) and the pool's admin command ({@code server.pooladmin})
 * stand beside the server and never use it, so {@code bin/sponge} loads no server.
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.server";

  @Test
  void thePackagesFormNoCycle() {
    PackageGraph graph = PackageGraph.of(SpongeServer.class, ROOT);
    assertThat(graph.edges())
        .as("jdeps saw the packages")
        .containsKeys(ROOT, ROOT + ".report", ROOT + ".pooladmin");
    assertThat(graph.uses(ROOT + ".report")).as("packages the status report uses").isEmpty();
    assertThat(graph.uses(ROOT + ".pooladmin")).as("packages the pool's admin uses").isEmpty();
    assertThat(graph.cycles()).isEmpty();
  }
}
