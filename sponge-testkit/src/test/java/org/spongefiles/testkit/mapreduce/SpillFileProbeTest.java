package org.spongefiles.testkit.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.TestDirs;

/**
 * The probe the merger's job tests rely on to show that no reduce-side file reached the local
 * directories sees every file below a reduce attempt's directory, whatever its name and however
 * briefly it lived, and none of a map attempt's.
 */
class SpillFileProbeTest {
  private static final String JOB = "localRunner/tasks-user/jobcache/job_local7_0001/";
  private static final String REDUCE = "attempt_local7_0001_r_000000_0";
  private static final String MAP = "attempt_local7_0001_m_000000_0";

  private Path local;

  @BeforeEach
  void setUp() throws Exception {
    local = Files.createTempDirectory("probe-local");
  }

  @AfterEach
  void tearDown() {
    TestDirs.deleteTree(local);
  }

  @Test
  void seesEveryReduceSideFileEvenOneDeletedAtOnceAndNoMapSideFile() throws Exception {
    Path reduce = Files.createDirectories(local.resolve(JOB + REDUCE + "/" + REDUCE));
    Path map = Files.createDirectories(local.resolve(JOB + MAP + "/output"));

    try (SpillFileProbe probe = SpillFileProbe.watch(local)) {
      // A merge round's file, gone before any walk could see it: only its inotify event tells.
      Files.delete(Files.createFile(reduce.resolve("intermediate.1")));
      // A fetched map output in a directory that did not exist when watching began.
      Path output = Files.createDirectories(local.resolve(JOB + REDUCE + "/output"));
      Files.write(output.resolve("map_3.out"), new byte[] {1});
      // Map-side files, including a map's own merge round: not the reduce side's.
      Files.write(map.resolve("spill0.out"), new byte[] {1});
      Files.write(map.getParent().resolve("intermediate.1"), new byte[] {1});

      Set<String> expected =
          Set.of(REDUCE + "/" + REDUCE + "/intermediate.1", REDUCE + "/output/map_3.out");
      await().atMost(Duration.ofSeconds(10)).until(() -> probe.seen().containsAll(expected));
      probe.close();
      assertThat(probe.seen()).isEqualTo(expected);
    }
  }
}
