package org.spongefiles.merger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.spongefiles.testkit.ChildJvm;

/**
 * One map output larger than the reducer's whole heap: in a JVM of 96 MiB, a single map emits about
 * 130 MiB for the one reducer. Hadoop's merger copies it to disk; ours streams it into a SpongeFile
 * (the pool, then the disk tier when the 32 MiB pool is full) and the job's output is the same.
 */
class HugeMapOutputTest {
  private static final int RECORDS = 125_000;

  @Test
  void aMapOutputLargerThanTheHeapStreamsIntoASpongeFile() throws Exception {
    Map<String, String> stock = runChild("stock");
    Map<String, String> ours = runChild("sponge");

    assertThat(stock.get("SUCCEEDED")).isEqualTo("true");
    assertThat(ours.get("SUCCEEDED")).isEqualTo("true");
    assertThat(ours.get("OUTPUT"))
        .isEqualTo(stock.get("OUTPUT"))
        .startsWith("records=" + RECORDS + " unsorted=0 crc=");
    long shuffled = Long.parseLong(ours.get("TaskCounter.REDUCE_SHUFFLE_BYTES"));
    assertThat(shuffled).isGreaterThan(96L << 20);
    assertThat(ours.get("SpongeFiles.MAP_OUTPUTS_SPILLED")).isEqualTo("1");
    long pool = Long.parseLong(ours.get("SpongeFiles.POOL_BYTES_WRITTEN"));
    long disk = Long.parseLong(ours.get("SpongeFiles.DISK_BYTES_WRITTEN"));
    assertThat(pool).isPositive();
    assertThat(disk).isPositive();
    assertThat(pool + disk).isEqualTo(shuffled);
    assertThat(stock.get("SPILLFILES")).isNotEqualTo("0");
    assertThat(ours.get("SPILLFILES")).isEqualTo("0");
  }

  private static Map<String, String> runChild(String mode) throws Exception {
    Path stderr = Files.createTempFile("huge-output-" + mode, ".log");
    ChildJvm child =
        ChildJvm.start(
            HugeOutputJob.class,
            stderr,
            List.of("-Xmx96m", "-XX:MaxDirectMemorySize=64m"),
            mode,
            Integer.toString(RECORDS));
    try {
      int exit = child.waitFor(200, TimeUnit.SECONDS);
      assertThat(exit).as("child exit; stderr kept in %s", stderr).isZero();
      Files.delete(stderr);
      return parse(child.output());
    } finally {
      child.close();
    }
  }

  private static Map<String, String> parse(List<String> lines) {
    Map<String, String> values = new HashMap<>();
    for (String line : lines) {
      if (line.startsWith("COUNTER\t")) {
        String[] fields = line.split("\t");
        String group = fields[1].substring(fields[1].lastIndexOf('.') + 1);
        values.put(group + "." + fields[2], fields[3]);
      } else if (line.contains(" ")) {
        values.put(line.substring(0, line.indexOf(' ')), line.substring(line.indexOf(' ') + 1));
      }
    }
    return values;
  }
}
