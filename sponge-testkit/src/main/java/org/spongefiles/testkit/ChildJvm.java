package org.spongefiles.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM running a test main class on the test classpath, for behaviour that crosses
 * process boundaries (shared memory, SIGKILL). Its standard output is read line by line; {@link
 * #close()} kills it.
 */
public final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> all = new ArrayList<>();
  private final Thread reader;

  private ChildJvm(Process process) {
    this.process = process;
    this.reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  synchronized (all) {
                    all.add(line);
                  }
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("EOF " + e);
              }
            },
            "child-jvm-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code mainClass} with {@code args}; stderr goes to {@code stderr} (appended). */
  public static ChildJvm start(
      Class<?> mainClass, Path stderr, List<String> jvmArgs, String... args) throws IOException {
    return startWrapped(List.of(), mainClass, stderr, jvmArgs, args);
  }

  /**
   * Starts {@code mainClass} under the command {@code wrapper} (for example {@code unshare --pid
   * --fork --mount-proc}), which runs the JVM as its child or descendant; {@link #kill} kills the
   * JVM as well as the wrapper.
   */
  public static ChildJvm startWrapped(
      List<String> wrapper, Class<?> mainClass, Path stderr, List<String> jvmArgs, String... args)
      throws IOException {
    List<String> command = new ArrayList<>(wrapper);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.addAll(jvmArgs);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
    return new ChildJvm(builder.start());
  }

  public static ChildJvm start(Class<?> mainClass, Path stderr, String... args) throws IOException {
    return start(mainClass, stderr, List.of(), args);
  }

  /** Waits for a line starting with {@code prefix} and returns it. */
  public String awaitLine(String prefix, long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    while (true) {
      long left = deadline - System.nanoTime();
      String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
      if (line == null) {
        throw new AssertionError(
            "child did not print '"
                + prefix
                + "' in time; output so far: "
                + output()
                + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")"));
      }
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  /** Waits for the child to exit and returns its exit code. */
  public int waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    if (!process.waitFor(timeout, unit)) {
      throw new AssertionError(
          "child still running after " + timeout + " " + unit + ": " + output());
    }
    reader.join(unit.toMillis(timeout));
    return process.exitValue();
  }

  /** Writes a line to the child's standard input. */
  public void sendLine(String line) throws IOException {
    process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().flush();
  }

  /**
   * Called in the child: until its standard input closes, answers each {@code VERIFY} line the
   * parent sends ({@link #sendLine}) with a line {@code VERIFIED <answer>}.
   */
  public static void answerVerify(Callable<?> answer) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.equals("VERIFY")) {
        System.out.println("VERIFIED " + answer.call());
        System.out.flush();
      }
    }
  }

  /** Every line printed so far. */
  public List<String> output() {
    synchronized (all) {
      return new ArrayList<>(all);
    }
  }

  public long pid() {
    return process.pid();
  }

  /** SIGKILL to the child and every process under it: none gets a chance to clean up. */
  public void kill() throws InterruptedException {
    List<ProcessHandle> under = new ArrayList<>();
    process.descendants().forEach(under::add);
    under.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    for (ProcessHandle handle : under) {
      try {
        handle.onExit().get(30, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        throw new AssertionError("process " + handle.pid() + " under the child did not die", e);
      }
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
