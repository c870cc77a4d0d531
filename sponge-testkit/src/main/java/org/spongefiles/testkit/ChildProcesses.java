package org.spongefiles.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child processes of the benchmarks: the command line of a JVM running a main class on this JVM's
 * classpath, and the output of a child read to its end.
 */
public final class ChildProcesses {
  private ChildProcesses() {}

  /** {@code java <jvmOptions> -cp <this classpath> <main> <args>}, with this JVM's java. */
  public static List<String> java(List<String> jvmOptions, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    return command;
  }

  /** Every line {@code process} prints on standard output, read until it closes the stream. */
  public static List<String> outputLines(Process process) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
      }
    }
    return lines;
  }
}
