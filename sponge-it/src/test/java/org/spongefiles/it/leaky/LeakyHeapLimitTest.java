package org.spongefiles.it.leaky;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.workloads.leaky.LeakyBenchChild;
import org.spongefiles.workloads.leaky.LeakyWorkload;

/**
 * The paper's failure case in a heap-limited JVM: the rank-revenue join whose build side needs more
 * heap as objects than the JVM has. The HashMap baseline dies with OutOfMemoryError; the leaky
 * buffer, with the same -Xmx and collector, finishes with the output a roomy baseline produces, its
 * value pages overflowing to SpongeFiles.
 */
class LeakyHeapLimitTest {
  private static final List<String> TIGHT = List.of("-Xms56m", "-Xmx56m", "-XX:+UseParallelGC");
  private static final List<String> ROOMY = List.of("-Xms384m", "-Xmx384m", "-XX:+UseParallelGC");

  private Path work;
  private Path poolDir;

  @BeforeEach
  void dirs() throws Exception {
    work = Files.createTempDirectory("leaky-heap-");
    poolDir = TestDirs.newShmDir("leaky-heap-pool");
  }

  @AfterEach
  void cleanUp() {
    TestDirs.deleteTree(work);
    TestDirs.deleteTree(poolDir);
  }

  @Test
  void theBaselineRunsOutOfMemoryWhereTheLeakyBufferFinishesWithTheRightOutput() throws Exception {
    Path input = work.resolve("join.input");
    LeakyWorkload.JOIN.write(input, 7, 200_000, 25_000, 5_000);
    assertThat(Files.size(input)).as("reduce input bytes").isGreaterThan(35L << 20);

    String reference = result(ROOMY, "baseline", input);
    String baseline = result(TIGHT, "baseline", input);
    String leaky = result(TIGHT, "leaky", input);

    assertThat(reference).contains("status=ok");
    assertThat(baseline).as("baseline at 56 MiB").contains("status=oom");
    assertThat(leaky).as("leaky buffer at 56 MiB").contains("status=ok");
    assertThat(field(leaky, "out")).isEqualTo(field(reference, "out")).isNotEqualTo("0");
    assertThat(field(leaky, "digest")).isEqualTo(field(reference, "digest"));
    assertThat(Double.parseDouble(field(leaky, "overflow_mb")))
        .as("value pages moved to SpongeFiles")
        .isPositive();
  }

  private String result(List<String> jvm, String variant, Path input) throws Exception {
    Path disk = Files.createDirectories(work.resolve("disk-" + variant));
    try (ChildJvm child =
        ChildJvm.start(
            LeakyBenchChild.class,
            work.resolve("child-" + variant + ".log"),
            jvm,
            "join",
            variant,
            input.toString(),
            poolDir.toString(),
            disk.toString())) {
      String line = child.awaitLine("RESULT", 120, TimeUnit.SECONDS);
      child.waitFor(60, TimeUnit.SECONDS);
      return line;
    }
  }

  private static String field(String line, String name) {
    for (String field : line.split(" ")) {
      if (field.startsWith(name + "=")) {
        return field.substring(name.length() + 1);
      }
    }
    throw new AssertionError("no " + name + " in " + line);
  }
}
