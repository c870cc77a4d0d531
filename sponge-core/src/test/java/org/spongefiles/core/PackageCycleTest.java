package org.spongefiles.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.PackageGraph;

/**
 * No cycle between the packages of sponge-core, read from the compiled classes by the JDK's jdeps:
 * each package may use those below it, never one that uses it back. The protocol ({@code wire})
 * stands on nothing of core, so the task side and the daemons share it without sharing a pool.
 */
class PackageCycleTest {
  private static final String ROOT = "org.spongefiles.core";

  @Test
  void thePackagesOfCoreFormNoCycle() {
    PackageGraph graph = PackageGraph.of(SpongeTask.class, ROOT);
    assertThat(graph.edges()).as("jdeps saw the packages").containsKeys(ROOT, ROOT + ".tier");
    assertThat(graph.cycles()).isEmpty();
  }

  @Test
  void theProtocolImportsNoOtherPackageOfCore() {
    PackageGraph graph = PackageGraph.of(SpongeTask.class, ROOT);
    assertThat(graph.edges())
        .as("jdeps saw the packages")
        .containsKeys(ROOT + ".wire", ROOT + ".remote");
    assertThat(graph.uses(ROOT + ".wire")).as("packages the protocol uses").isEmpty();
    assertThat(graph.uses(ROOT + ".remote"))
        .as("packages the remote tier uses")
        .contains(ROOT + ".wire")
        .doesNotContain(ROOT + ".pool");
  }

  @Test
  void theTaskSideUsesNoNetty() {
    assertThat(PackageGraph.of(SpongeTask.class, ROOT).linesUsing("io.netty"))
        .as("core packages using Netty (the daemons' Netty code is in sponge-daemon)")
        .isEmpty();
  }
}
