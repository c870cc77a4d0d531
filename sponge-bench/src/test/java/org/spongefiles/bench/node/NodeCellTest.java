package org.spongefiles.bench.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A sweep cell reports the runs that failed beside the ones that gave times. */
class NodeCellTest {
  @Test
  void aCellWithAFailedRunReportsTheOthersAndCountsTheFailure() {
    NodeCell cell = new NodeCell("hdd", "contended", "scarce");
    cell.add(5.0, 3.0);
    cell.failed(2, "MedianRun exited 137");
    cell.add(4.0, 4.0);

    assertThat(cell.measured()).isTrue();
    assertThat(NodeCell.median(cell.ratios)).isEqualTo(0.8);
    assertThat(cell.row())
        .isEqualTo(
            "| hdd | contended | scarce | 4.5 (4.0-5.0) | 3.5 (3.0-4.0) | 0.80 (0.60-1.00); 1 of 3"
                + " runs failed |");
    assertThat(cell.details()).contains("runs=2 failed_runs=1 ");
  }

  @Test
  void aCellWhoseEveryRunFailedSaysSoInsteadOfATime() {
    NodeCell cell = new NodeCell("nvme", "quiet", "scarce");
    cell.failed(1, "MedianRun exited 137");
    cell.failed(2, "MedianRun exited 137");

    assertThat(cell.measured()).isFalse();
    assertThat(cell.row())
        .isEqualTo("| nvme | quiet | scarce | - | - | all 2 runs failed (see the output) |");
    assertThat(cell.failures)
        .containsExactly("run 1: MedianRun exited 137", "run 2: MedianRun exited 137");
  }

  @Test
  void aCellWithoutFailuresLooksAsBefore() {
    NodeCell cell = new NodeCell("sata-ssd", "quiet", "abundant");
    cell.add(2.0, 2.2);

    assertThat(cell.row())
        .isEqualTo(
            "| sata-ssd | quiet | abundant | 2.0 (2.0-2.0) | 2.2 (2.2-2.2) | 1.10 (1.10-1.10) |");
    assertThat(cell.details()).contains("runs=1 reduce_phase_s").doesNotContain("failed");
  }
}
