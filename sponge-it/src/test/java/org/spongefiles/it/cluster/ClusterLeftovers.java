package org.spongefiles.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.spongefiles.emulator.EmulatorSupport;
import org.spongefiles.emulator.HostCommand;
import org.spongefiles.emulator.StaleResources;
import org.spongefiles.emulator.Teardown;

/** What a closed emulated cluster may not leave behind. */
final class ClusterLeftovers {
  private ClusterLeftovers() {}

  /**
   * Before a cluster test: skips it (a JUnit assumption) unless this machine can emulate racks,
   * sweeps what an earlier killed run left, and returns the machine's temporary entries ({@link
   * #machineTmp()}) for {@link #assertNone}.
   */
  static Set<String> begin() throws IOException {
    EmulatorSupport support = EmulatorSupport.probe();
    assumeTrue(
        support.has(EmulatorSupport.Piece.RACK_NETWORK),
        "the emulated cluster needs root with netns, veth, bridge and tc: " + support.missing());
    StaleResources.clean().forEach(line -> System.out.println("swept " + line));
    return machineTmp();
  }

  /** The entries of the machine's temporary directory, to compare after a run. */
  static Set<String> machineTmp() throws IOException {
    try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return entries.map(entry -> entry.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  /**
   * Asserts that nothing of the cluster run in {@code runDir} on {@code namespaces} is left:
   * namespaces, /etc/netns entries, mounts, processes, files, and no entry of the machine's
   * temporary directory that was not in {@code tmpBefore} ({@link #machineTmp()}) and names a node
   * (a daemon's web server unpacks there unless its java.io.tmpdir is the node's).
   */
  static void assertNone(Path runDir, List<String> namespaces, Set<String> tmpBefore)
      throws IOException {
    Set<String> tmpNow = machineTmp();
    tmpNow.removeAll(tmpBefore);
    assertThat(tmpNow)
        .as("new entries of the machine's temporary directory")
        .noneMatch(name -> name.startsWith("jetty-master-") || name.startsWith("jetty-rack"));
    String left = HostCommand.run("ip", "netns", "list");
    for (String namespace : namespaces) {
      assertThat(left).doesNotContain(namespace);
    }
    assertThat(left).doesNotContain(Teardown.prefix());
    assertThat(Path.of("/etc/netns"))
        .satisfiesAnyOf(
            dir -> assertThat(dir).doesNotExist(),
            dir ->
                assertThat(dir.toFile().list())
                    .noneMatch(name -> name.startsWith(Teardown.prefix())));
    assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(runDir.toString());
    assertThat(runDir).doesNotExist();
    List<String> processes =
        ProcessHandle.allProcesses()
            .map(p -> p.info().commandLine().orElse(""))
            .filter(line -> line.contains(runDir.toString()))
            .collect(Collectors.toList());
    assertThat(processes).as("processes of the cluster").isEmpty();
  }
}
