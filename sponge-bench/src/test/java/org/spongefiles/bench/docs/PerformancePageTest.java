package org.spongefiles.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.bench.node.PerformancePage;

/**
 * docs/performance.md's table per node class is what {@link PerformancePage} generates from the
 * committed results, and it stands where a reader sees it first; the generator itself, on small
 * results of its own.
 */
class PerformancePageTest {
  private static final String NODE_SWEEP =
      "# Node sweep\n\ntext\n\n"
          + "| disk | load | memory | stock s | ours s | ours / stock |\n"
          + "|---|---|---|---|---|---|\n"
          + "| hdd | quiet | scarce | 2.9 (2.9-2.9) | 2.3 (2.3-2.4) | 0.80 (0.79-0.83) |\n"
          + "| hdd | contended | scarce | 5.2 (5.2-5.4) | 2.5 (2.4-2.5) | 0.46 (0.45-0.47) |\n"
          + "| hdd | quiet | scarce-pool32m-remote10g | 3.5 (3.3-4.2) | 3.2 (2.9-3.5) |"
          + " 0.88 (0.77-0.99) |\n";
  private static final String PIG_SWEEP =
      "# Pig sweep\n\n"
          + "| query | disk | load | memory | stock s | recipe s | recipe / stock | spilled |\n"
          + "|---|---|---|---|---|---|---|---|\n"
          + "| anchortext | hdd | quiet | scarce | 6.9 | 7.3 | 1.05 (1.02-1.08) | 22.2 / 0.0 |\n"
          + "| quantiles | hdd | quiet | scarce | 5.7 | 6.4 | 1.11 (1.06-1.14) | 15.0 / 0.0 |\n"
          + "| anchortext | hdd | contended | scarce | 7.7 | 7.5 | 0.97 (0.93-1.12) | 19.1 / 0.0 |\n"
          + "| quantiles | hdd | contended | scarce | 6.7 | 6.5 | 0.93 (0.93-1.07) | 14.2 / 0.0 |\n";

  @TempDir Path dir;

  @Test
  void theCommittedTableIsWhatTheCommittedResultsGenerate() {
    Path root = MarkdownDocs.root();
    String page = MarkdownDocs.read(root.resolve("docs").resolve("performance.md"));
    String generated =
        PerformancePage.table(root.resolve("docs").resolve("results").resolve("node-sweep"));

    assertThat(page)
        .as("docs/performance.md; regenerate with -Dbench.main=%s", PerformancePage.class.getName())
        .isEqualTo(PerformancePage.withTable(page, generated));
    assertThat(generated.split("\n")).as("header, rule and 16 node classes").hasSize(18);
  }

  @Test
  void theTableStandsAboveTheFirstScroll() {
    List<String> lines =
        MarkdownDocs.proseLines(MarkdownDocs.root().resolve("docs").resolve("performance.md"));

    assertThat(lines.indexOf(PerformancePage.HEADER))
        .as("line of the table per node class")
        .isBetween(1, 20);
    assertThat(lines.subList(0, lines.indexOf(PerformancePage.HEADER)))
        .as("what comes before the table")
        .contains("## What a job gains, per node class");
  }

  @Test
  void eachNodeClassGetsItsRatiosTheBestInBoldAndTheLinkRowsNoPigCells() throws IOException {
    write("node-sweep.md", NODE_SWEEP);
    write("pig-sweep.md", PIG_SWEEP);

    assertThat(PerformancePage.table(dir).split("\n"))
        .containsExactly(
            PerformancePage.HEADER,
            "|---|---|---|---|---|---|---|",
            "| hdd | quiet | scarce | none | 0.80 (0.79-0.83) | 1.05 (1.02-1.08) | 1.11 (1.06-1.14) |",
            "| hdd | contended | scarce | none | **0.46 (0.45-0.47)** | 0.97 (0.93-1.12) |"
                + " 0.93 (0.93-1.07) |",
            "| hdd | quiet | scarce, pool 32m | 10 Gb/s | 0.88 (0.77-0.99) | | |");
  }

  @Test
  void aNodeClassWithoutPigCellsIsNamed() throws IOException {
    write("node-sweep.md", NODE_SWEEP);
    write("pig-sweep.md", PIG_SWEEP.replace("| quantiles | hdd | contended |", "| q | x | y |"));

    assertThatThrownBy(() -> PerformancePage.table(dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pig-sweep.md has no row quantiles/hdd/contended/scarce");
  }

  @Test
  void thePageKeepsAllButWhatStandsBetweenTheMarkers() {
    String page = "# P\n\nbefore\n\n" + PerformancePage.BEGIN + "\n\nold\n\n" + PerformancePage.END;

    assertThat(PerformancePage.withTable(page + "\n\nafter\n", "| new |\n"))
        .isEqualTo(
            "# P\n\nbefore\n\n"
                + PerformancePage.BEGIN
                + "\n\n| new |\n\n"
                + PerformancePage.END
                + "\n\nafter\n");
    assertThatThrownBy(() -> PerformancePage.withTable("# P\n", "| new |\n"))
        .hasMessageContaining(PerformancePage.BEGIN);
  }

  private void write(String name, String text) throws IOException {
    Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }
}
