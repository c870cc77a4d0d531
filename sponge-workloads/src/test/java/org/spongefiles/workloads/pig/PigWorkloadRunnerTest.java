package org.spongefiles.workloads.pig;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** How the runner splits a child's CPU among the JVM's own threads. */
class PigWorkloadRunnerTest {

  @Test
  @EnabledOnOs(OS.LINUX)
  void theJvmsOwnThreadsAreFoundByTheirLinuxNames() throws IOException {
    List<Path> threads;
    try (Stream<Path> list = Files.list(Path.of("/proc/self/task"))) {
      threads = list.collect(Collectors.toList());
    }
    Set<String> kinds = new HashSet<>();
    for (Path thread : threads) {
      String kind = PigWorkloadRunner.vmThreadKind(Files.readString(thread.resolve("comm")).trim());
      if (kind != null) {
        kinds.add(kind);
      }
    }

    // Every HotSpot JVM has a VM thread and compilers; the collector's threads depend on the GC.
    assertThat(kinds).contains("cpu_vm_millis", "cpu_jit_millis");
  }

  @Test
  void eachThreadNameIsSortedByWhatTheThreadDoes() {
    assertThat(PigWorkloadRunner.vmThreadKind("main")).isNull();
    assertThat(PigWorkloadRunner.vmThreadKind("pool-13-thread-")).isNull();
    assertThat(PigWorkloadRunner.vmThreadKind("Finalizer")).isNull();
    assertThat(PigWorkloadRunner.vmThreadKind("Sweeper thread")).isEqualTo("cpu_vm_millis");
    assertThat(PigWorkloadRunner.vmThreadKind("GC Thread#1")).isEqualTo("cpu_gc_millis");
    assertThat(PigWorkloadRunner.vmThreadKind("C2 CompilerThre")).isEqualTo("cpu_jit_millis");
  }
}
