package org.spongefiles.bench.median;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.spongefiles.server.ServerMain;
import org.spongefiles.testkit.ChildProcesses;
import org.spongefiles.workloads.median.MedianRun;

/**
 * The child JVMs of {@link MedianBench}: one {@link MedianRun} per measured run, so stock and ours
 * each get a fresh JVM of the same size, and a sponge server lending its pool as remote memory.
 * Their standard error goes to one log file.
 */
final class MedianProcesses {
  private MedianProcesses() {}

  /** Runs {@link MedianRun} to completion; returns its {@code RESULT key=value} pairs. */
  static Map<String, String> run(
      List<String> jvmOptions, List<String> args, Path log, MedianPlacement placement)
      throws IOException, InterruptedException {
    Process process = start(jvmOptions, MedianRun.class, args, log, placement);
    Map<String, String> result = new LinkedHashMap<>();
    for (String line : ChildProcesses.outputLines(process)) {
      if (line.startsWith("RESULT ")) {
        int eq = line.indexOf('=');
        result.put(line.substring("RESULT ".length(), eq), line.substring(eq + 1));
      }
    }
    int exit = process.waitFor();
    if (exit != 0 && result.isEmpty()) {
      throw new IOException("MedianRun " + args + " exited " + exit + "; see " + log);
    }
    return result;
  }

  /** A sponge server in its own JVM, stopped (SIGTERM, then SIGKILL) on close. */
  static final class Server implements Closeable {
    private final Process process;
    final String endpoint;

    private Server(Process process, String endpoint) {
      this.process = process;
      this.endpoint = endpoint;
    }

    static Server start(Map<String, String> conf, Path log)
        throws IOException, InterruptedException {
      List<String> args = new ArrayList<>();
      conf.forEach((key, value) -> args.add("-D" + key + "=" + value));
      Process process =
          MedianProcesses.start(
              List.of("-Xmx128m"), ServerMain.class, args, log, MedianPlacement.HERE);
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("READY ")) {
          return new Server(process, line.split(" ")[1]);
        }
      }
      process.destroyForcibly();
      throw new IOException("The sponge server did not start; see " + log);
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Process start(
      List<String> jvmOptions,
      Class<?> main,
      List<String> args,
      Path log,
      MedianPlacement placement)
      throws IOException {
    List<String> command = ChildProcesses.java(jvmOptions, main, args);
    return new ProcessBuilder(placement.command(command))
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }
}
