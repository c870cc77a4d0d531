package org.spongefiles.workloads.pig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.testkit.data.WebCrawlGenerator;

/** A Pig child's warm-ups and repeated reported runs. */
class PigJvmTest {

  @Test
  void aChildReportsEachRepeatWithAnOutputOfItsOwnAndTheSameAnswer(@TempDir Path dir)
      throws Exception {
    Path pages = dir.resolve("pages");
    new WebCrawlGenerator(7).write(pages, 300, 1);

    List<QueryRun> runs =
        new PigJvm(pages, dir.resolve("work"))
            .warmUps(1)
            .repeats(3)
            .queries(PigQuery.ANCHORTEXT)
            .run();

    assertThat(runs).hasSize(3);
    assertThat(runs).extracting(QueryRun::output).doesNotHaveDuplicates();
    List<String> first = PigReference.sortedLines(runs.get(0).output());
    assertThat(first).isNotEmpty();
    for (QueryRun run : runs) {
      assertThat(run.name()).isEqualTo("anchortext");
      assertThat(run.cpuMillis()).isPositive();
      assertThat(PigReference.sortedLines(run.output())).isEqualTo(first);
    }
  }

  @Test
  void fewerThanOneRepeatIsRefusedWithTheValue(@TempDir Path dir) {
    PigJvm child = new PigJvm(dir.resolve("pages"), dir.resolve("work"));

    assertThatThrownBy(() -> child.repeats(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("repeats: 0 (expected: >= 1)");
  }
}
