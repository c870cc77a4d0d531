package org.spongefiles.emulator;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A daemon JVM of the emulator (a sponge server in a node namespace, the rack's services in the
 * switch namespace), started by its main class and ready once it printed its {@code READY} line.
 * Standard error goes to a log file; standard output is kept empty behind the {@code READY} line.
 * Closing stops it (SIGTERM, then SIGKILL) and waits for it to end; a {@link Teardown} hook does
 * the same at exit and on Ctrl-C.
 */
public final class NodeProcess implements Closeable {
  private static final long STOP_SECONDS = 15;

  final String name;

  /** The lines printed before {@code READY}, then the {@code READY} line itself. */
  final List<String> lines;

  private final Process process;

  private NodeProcess(String name, Process process, List<String> lines) {
    this.name = name;
    this.process = process;
    this.lines = lines;
  }

  /** Starts {@code command} and waits for its {@code READY} line; it fails naming {@code log}. */
  public static NodeProcess start(String name, List<String> command, Path log) throws IOException {
    Process process =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    NodeProcess started = new NodeProcess(name, process, new ArrayList<>());
    Teardown.register(started);
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null) {
        started.lines.add(line);
        if (line.startsWith("READY ")) {
          Thread drain = new Thread(() -> drain(out), "drain-" + name);
          drain.setDaemon(true);
          drain.start();
          return started;
        }
      }
      throw new IOException(name + " exited before it was ready; see " + log);
    } catch (IOException | RuntimeException e) {
      started.close();
      throw e;
    }
  }

  /**
   * Starts {@code command} with {@code environment} added to this JVM's, both its output streams
   * appended to {@code log}, without waiting for anything: for daemons that print no {@code READY}
   * line (Hadoop's), whose caller probes them itself. Not held by {@link Teardown}: the caller, a
   * {@link HostResource} that is, stops it.
   */
  public static NodeProcess launch(
      String name, List<String> command, Map<String, String> environment, Path log)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    return new NodeProcess(name, builder.start(), new ArrayList<>());
  }

  /** Whether the process still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** The {@code READY} line's fields after {@code READY}. */
  String[] ready() {
    String line = lines.get(lines.size() - 1);
    return line.substring("READY ".length()).split(" ");
  }

  /** The name it was started under, e.g. {@code nodemanager of rack1-node1}. */
  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  private static void drain(BufferedReader out) {
    try {
      while (out.readLine() != null) {
        // keep the pipe empty
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }

  @Override
  public void close() {
    Teardown.forget(this);
    process.destroy();
    try {
      if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(STOP_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
