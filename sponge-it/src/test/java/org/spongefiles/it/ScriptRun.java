package org.spongefiles.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** A script of the distribution run to its end: its exit status and what it printed. */
public final class ScriptRun {
  public final int exit;
  public final String output;

  private ScriptRun(int exit, String output) {
    this.exit = exit;
    this.output = output;
  }

  /** Runs {@code builder}, its error stream merged into its output, for at most 60 seconds. */
  public static ScriptRun of(ProcessBuilder builder) throws IOException, InterruptedException {
    Process process = builder.redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s ended", builder.command()).isTrue();
    return new ScriptRun(process.exitValue(), output);
  }
}
