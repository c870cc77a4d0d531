package org.spongefiles.bench.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Pig cells when a child does not finish: the run is reported with its cell, left out of the
 * ratios, and the cell goes on; a recipe failing where stock Pig finished fails the sweep. Runs on
 * a plain directory (no disk class, container or neighbours), so without root.
 */
class PigNodeCellsTest {
  @TempDir Path dir;

  @Test
  void aRecipeThatFailsWhereStockPigFinishesIsReportedWithItsCellAndFailsTheSweep()
      throws Exception {
    // An operator's typo in the recipe's pool size: the recipe's children fail at their first bag,
    // naming the key; stock Pig's finish.
    System.setProperty("bench.node.pig.pool", "lots");
    PigNodeCells cells;
    try {
      cells = new PigNodeCells(1, dir.resolve("out"), dir, 2_000, "96m");
    } finally {
      System.clearProperty("bench.node.pig.pool");
    }

    cells.measure("nvme", "quiet", "abundant", dir.resolve("node"), false, null, 0);
    cells.report(List.of());
    cells.plot("nvme");

    assertThat(cells.recipeFailedWhereStockFinished()).isTrue();
    List<String> table =
        Files.readAllLines(dir.resolve("out").resolve("pig-sweep.md"), StandardCharsets.UTF_8);
    for (String query : new String[] {"anchortext", "quantiles"}) {
      assertThat(table)
          .contains(
              "| "
                  + query
                  + " | nvme | quiet | abundant | - | - | all 1 runs failed (stock failed in 0,"
                  + " the recipe in 1; see the output) | - | - |");
    }
    assertThat(cells.byQuery("nvme", "quiet").get("quantiles"))
        .singleElement()
        .satisfies(
            cell -> {
              assertThat(cell.measured()).isFalse();
              assertThat(cell.failures)
                  .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                  .startsWith("run 1: stock finished in ")
                  .contains("; recipe exited ")
                  .contains("sponge.pool.size");
            });
    assertThat(dir.resolve("out").resolve("pig-quantiles-nvme.png"))
        .as("no plot of cells whose every run failed")
        .doesNotExist();
    try (var left = Files.list(dir.resolve("node").resolve("pig"))) {
      assertThat(left).as("the runs' work directories, removed").isEmpty();
    }
  }
}
