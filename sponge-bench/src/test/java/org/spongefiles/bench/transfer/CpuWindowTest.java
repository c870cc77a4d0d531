package org.spongefiles.bench.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class CpuWindowTest {
  @Test
  void aBusyThreadsTimeIsCountedInItsProcessAndItsThreadGroups() throws Exception {
    assumeTrue(CpuWindow.available(), "no /proc here");
    List<String> report;
    try (CpuWindow window = new CpuWindow(Map.of("me", ProcessHandle.current().pid()))) {
      Thread busy = new Thread(CpuWindowTest::spin, "busy-worker");
      busy.start();
      busy.join();
      report = window.report();
    }

    assertThat(report.get(0)).matches("cpu: [0-9.]+ s wall x \\d+ cores = .*idle [0-9.-]+");
    String me = report.get(1);
    double process = number(me, "cpu: me ([0-9.]+) core-s:");
    assertThat(process).isGreaterThanOrEqualTo(0.3); // the busy thread's 0.6 s, though it ended
    double groups = 0;
    Matcher group = Pattern.compile(" ([^:,]+) (-?[0-9.]+)(,|$)").matcher(me);
    while (group.find()) {
      groups += Double.parseDouble(group.group(2));
    }
    assertThat(groups).isCloseTo(process, within(0.3)); // groups under 0.05 are not listed
  }

  /** About 600 ms of CPU. */
  private static void spin() {
    long end = System.nanoTime() + 600_000_000L;
    byte[] data = new byte[64 << 10];
    CRC32C crc = new CRC32C();
    while (System.nanoTime() < end) {
      crc.update(data);
    }
    data[0] = (byte) crc.getValue();
  }

  private static double number(String line, String regex) {
    Matcher m = Pattern.compile(regex).matcher(line);
    assertThat(m.find()).as("%s in %s", regex, line).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
