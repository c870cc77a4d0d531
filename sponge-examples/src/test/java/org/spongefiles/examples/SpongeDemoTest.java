package org.spongefiles.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The README's first command runs this demo: it must compute the right median both ways. */
class SpongeDemoTest {
  @Test
  void theDemoFindsTheMedianWithBothMergersAndSpillsThroughEveryTier() throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    // Scaled down, but each map output (about 3.6 MiB) still exceeds what one may take of the
    // reducer's shuffle memory, and all of them overflow the node's 16 MiB pool.
    System.setProperty("demo.numbers", "1200000");
    System.setProperty("demo.maps", "6");
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      SpongeDemo.main(new String[0]);
    } finally {
      System.setOut(out);
      System.clearProperty("demo.numbers");
      System.clearProperty("demo.maps");
    }
    String report = captured.toString(StandardCharsets.UTF_8);
    out.print(report);
    assertThat(report)
        .containsPattern("correct \\(\\d{16}\\) +yes +yes")
        .containsPattern("spill files in local dirs +[1-9]\\d* +0\\n")
        .contains("this node's shared pool")
        .contains("the rack's sponge servers")
        .contains("final merge of 6 segments in one round");
  }
}
