package org.spongefiles.emulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one host command (losetup, mkfs, mount, ip, tc) to completion and captures its output; a
 * failure throws an {@link IOException} naming the command, its exit status and what it printed.
 */
public final class HostCommand {
  private static final long TIMEOUT_SECONDS = 60;

  /** What a finished command printed (standard output and error together) and its exit status. */
  public static final class Outcome {
    final int exit;
    public final String output;

    Outcome(int exit, String output) {
      this.exit = exit;
      this.output = output;
    }

    public boolean ok() {
      return exit == 0;
    }
  }

  private HostCommand() {}

  /** Runs {@code command}; returns its output, or throws when it exits non-zero. */
  public static String run(String... command) throws IOException {
    return run(Arrays.asList(command));
  }

  public static String run(List<String> command) throws IOException {
    return run(command, Map.of());
  }

  /** Runs {@code command} with {@code environment} added to this JVM's; throws on a failure. */
  public static String run(List<String> command, Map<String, String> environment)
      throws IOException {
    Outcome outcome = attempt(command, environment);
    if (!outcome.ok()) {
      throw new IOException(
          "Host command '"
              + String.join(" ", command)
              + "' exited "
              + outcome.exit
              + ": "
              + outcome.output.trim());
    }
    return outcome.output;
  }

  /** Runs {@code command} and returns how it ended, without throwing on a non-zero exit. */
  public static Outcome attempt(String... command) throws IOException {
    return attempt(Arrays.asList(command));
  }

  public static Outcome attempt(List<String> command) throws IOException {
    return attempt(command, Map.of());
  }

  /** Runs {@code command} with {@code environment} added to this JVM's. */
  public static Outcome attempt(List<String> command, Map<String, String> environment)
      throws IOException {
    Process process;
    try {
      ProcessBuilder builder =
          new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
      builder.environment().putAll(environment);
      process = builder.start();
    } catch (IOException e) {
      throw new IOException("Host command '" + String.join(" ", command) + "' did not start", e);
    }
    try {
      process.getOutputStream().close();
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(
            "Host command '" + String.join(" ", command) + "' ran over " + TIMEOUT_SECONDS + " s");
      }
      return new Outcome(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted running '" + String.join(" ", command) + "'", e);
    }
  }

  /** {@code text} quoted for {@code sh -c}. */
  public static String shellQuote(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }
}
