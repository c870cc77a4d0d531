package org.spongefiles.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.spongefiles.emulator.HostCommand;
import org.spongefiles.emulator.Teardown;

/** What a closed emulated cluster may not leave behind. */
final class ClusterLeftovers {
  private ClusterLeftovers() {}

  /**
   * Asserts that nothing of the cluster run in {@code runDir} on {@code namespaces} is left:
   * namespaces, /etc/netns entries, mounts, processes, files.
   */
  static void assertNone(Path runDir, List<String> namespaces) throws IOException {
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
