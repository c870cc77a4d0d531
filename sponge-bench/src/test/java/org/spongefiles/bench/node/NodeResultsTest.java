package org.spongefiles.bench.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.core.SpongeOptions;

/** The one-command sweep's choice of parts, what it passes to them, and the tables they write. */
class NodeResultsTest {
  @TempDir Path dir;

  @Test
  void runsEveryPartInOrderUnlessSomeAreNamed() {
    assertThat(NodeResults.parts(""))
        .containsExactly(
            NodeResults.Part.DISK_CLASSES,
            NodeResults.Part.SPILL_CLASSES,
            NodeResults.Part.SWEEP,
            NodeResults.Part.BLOCKED_TIME);
    assertThat(NodeResults.parts(" Sweep, disk-classes ,"))
        .containsExactly(NodeResults.Part.SWEEP, NodeResults.Part.DISK_CLASSES);
  }

  @Test
  void anUnknownPartIsRejectedNamingTheKeyTheValueAndTheParts() {
    assertThatThrownBy(() -> NodeResults.parts("sweep,pig-cels"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bench.node.benches")
        .hasMessageContaining("'pig-cels'")
        .hasMessageContaining("blocked-time");
  }

  @Test
  void passesBenchAndSpongePropertiesButNotItsOwn() {
    System.setProperty("bench.node.runs", "5");
    System.setProperty(SpongeOptions.IO_THREADS.key(), "4");
    System.setProperty("bench.node.benches", "sweep");
    try {
      List<String> options = NodeResults.forwardedProperties();
      assertThat(options).contains("-Dbench.node.runs=5", "-Dsponge.io.threads=4");
      assertThat(options).noneMatch(option -> option.startsWith("-Dbench.node.benches"));
      assertThat(options).noneMatch(option -> option.startsWith("-Djava."));
    } finally {
      System.clearProperty("bench.node.runs");
      System.clearProperty(SpongeOptions.IO_THREADS.key());
      System.clearProperty("bench.node.benches");
    }
  }

  @Test
  void writesItsTableIntoTheResultsDirectory() throws IOException {
    System.setProperty("bench.node.out", dir.resolve("results").toString());
    try {
      ResultTable table = new ResultTable("Title", "What the rows measure.");
      table.columns("cell", "ratio");
      table.row("hdd", "0.95 (0.43-1.32)");
      table.note("hdd: 120 MB/s");
      Path file = table.write("t.md");
      assertThat(file).isEqualTo(dir.resolve("results").resolve("t.md"));
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      assertThat(lines.get(0)).isEqualTo("# Title");
      assertThat(lines)
          .containsSubsequence(
              "| cell | ratio |", "|---|---|", "| hdd | 0.95 (0.43-1.32) |", "- hdd: 120 MB/s");
      assertThat(lines).anyMatch(line -> line.startsWith("- Machine: ") && line.contains("JDK"));
    } finally {
      System.clearProperty("bench.node.out");
    }
  }

  @Test
  void aRowMustFillEveryColumn() {
    ResultTable table = new ResultTable("Title", "text").columns("a", "b");
    assertThatThrownBy(() -> table.row("only one"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 cells for 2 columns");
  }
}
