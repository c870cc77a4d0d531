package org.spongefiles.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/performance.md's table per node class is a faithful copy of the generated tables it names:
 * the median job's cells from node-sweep.md, the Pig queries' from pig-sweep.md, every row of
 * node-sweep.md present.
 */
class PerformanceTableTest {
  private static final Path SWEEP = Path.of("docs", "results", "node-sweep");

  @Test
  void nodeClassCellsMatchTheGeneratedTables() {
    Path root = MarkdownDocs.root();
    Map<String, String> median = new HashMap<>();
    for (List<String> row :
        MarkdownDocs.table(root.resolve(SWEEP).resolve("node-sweep.md"), "| disk | load |")) {
      median.put(row.get(0) + "/" + row.get(1) + "/" + row.get(2), row.get(5));
    }
    Map<String, String> pig = new HashMap<>();
    for (List<String> row :
        MarkdownDocs.table(root.resolve(SWEEP).resolve("pig-sweep.md"), "| query | disk |")) {
      pig.put(row.get(0) + "/" + row.get(1) + "/" + row.get(2) + "/" + row.get(3), row.get(6));
    }
    List<List<String>> page =
        MarkdownDocs.table(
            root.resolve("docs").resolve("performance.md"), "| disk | load | memory | link |");

    assertThat(page).as("rows per node class").hasSize(median.size());
    for (List<String> row : page) {
      String cell = row.get(0) + "/" + row.get(1) + "/" + sourceMemory(row.get(2), row.get(3));
      assertThat(median).as("node-sweep.md has the row %s", cell).containsKey(cell);
      assertThat(row.get(4).replace("**", ""))
          .as("median job, %s", cell)
          .isEqualTo(median.get(cell));
      boolean local = row.get(3).equals("none");
      assertThat(row.get(5))
          .as("anchortext, %s", cell)
          .isEqualTo(local ? pig.get("anchortext/" + cell) : "");
      assertThat(row.get(6))
          .as("quantiles, %s", cell)
          .isEqualTo(local ? pig.get("quantiles/" + cell) : "");
    }
  }

  /**
   * The generated table's memory column: "scarce, pool 32m" on a "1 Gb/s" link is
   * scarce-pool32m-remote1g.
   */
  private static String sourceMemory(String memory, String link) {
    if (link.equals("none")) {
      return memory;
    }
    String speed = link.replace(" Gb/s", "g");
    return memory.replace(", pool ", "-pool") + "-remote" + speed;
  }
}
