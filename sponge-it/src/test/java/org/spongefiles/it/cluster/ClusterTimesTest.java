package org.spongefiles.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterTimesTest {
  @TempDir Path dir;

  @Test
  void reportsEachDiskLoadFromItsLatestRunOnly() throws Exception {
    Path csv = dir.resolve("times").resolve("cluster-times.csv");
    ClusterTimes older = new ClusterTimes(csv, "hdd", "quiet");
    older.record("median", MedianClient.STOCK, 1, 99_000);
    older.record("median", MedianClient.OURS, 1, 1_000);
    Thread.sleep(5);
    ClusterTimes quiet = new ClusterTimes(csv, "hdd", "quiet");
    ClusterTimes contended = new ClusterTimes(csv, "hdd", "contended");
    for (int round = 1; round <= 3; round++) {
      contended.record("median", MedianClient.STOCK, round, 60_000 + round * 1_000);
      contended.record("median", MedianClient.OURS, round, 30_000 + round * 1_000);
      quiet.record("median", MedianClient.STOCK, round, 40_000 + round * 1_000);
      quiet.record("median", MedianClient.OURS, round, 36_000 - round * 1_000);
      quiet.record("index", MedianClient.STOCK, round, 20_000);
      quiet.record("index", MedianClient.OURS, round, 25_000);
    }

    String table = ClusterTimes.report(csv);

    assertThat(Files.readAllLines(csv)).first().isEqualTo(ClusterTimes.HEADER);
    assertThat(table)
        .contains("| hdd-quiet | 41.0, 42.0, 43.0 | 35.0, 34.0, 33.0 | 42.0 / 34.0 | 0.810 |")
        .contains("| hdd-contended | 61.0, 62.0, 63.0 | 31.0, 32.0, 33.0 | 62.0 / 32.0 | 0.516 |")
        .contains("| hdd-quiet | 20.0, 20.0, 20.0 | 25.0, 25.0, 25.0 | 20.0 / 25.0 | 1.250 |")
        .doesNotContain("99.0");
    assertThat(table.indexOf("hdd-quiet | 41.0")).isLessThan(table.indexOf("hdd-contended"));
    assertThat(Files.readString(csv.resolveSibling("cluster-times.md"))).isEqualTo(table);
    for (String workload : List.of("median", "index")) {
      BufferedImage plot =
          ImageIO.read(csv.resolveSibling("cluster-" + workload + ".png").toFile());
      assertThat(plot.getWidth()).isEqualTo(800);
    }
  }

  @Test
  void aMalformedRowNamesItself() {
    assertThatThrownBy(() -> ClusterTimes.latest(List.of(ClusterTimes.HEADER, "run,median,hdd")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("run,median,hdd")
        .hasMessageContaining("7 fields");
  }
}
