package org.spongefiles.testkit;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;

/**
 * Starts a daemon's entry in-process, as its script would, for tests of what it refuses. A started
 * daemon is anything {@link Closeable} (sponge-daemon's {@code RunningDaemon}), so the test kit
 * needs no SpongeFiles module.
 */
public final class DaemonStarts {
  private DaemonStarts() {}

  /** The configuration as {@code -Dkey=value} arguments. */
  public static List<String> args(Configuration conf) {
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> entry : conf) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    return args;
  }

  /**
   * Runs {@code launch} (a daemon main's {@code launch(args, err)}) and returns the one line it
   * printed, asserting it did not start, printed no stack trace and began with {@code name}.
   */
  public static String refused(
      String name,
      BiFunction<List<String>, PrintStream, ? extends Closeable> launch,
      List<String> args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Closeable daemon = launch.apply(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    if (daemon != null) {
      try {
        daemon.close();
      } catch (IOException e) {
        throw new UncheckedIOException(name + " started with " + args + " and failed to stop", e);
      }
      throw new AssertionError(name + " started with " + args);
    }
    String text = err.toString(StandardCharsets.UTF_8);
    if (text.lines().count() != 1) {
      throw new AssertionError(
          name + " printed " + text.lines().count() + " lines, not one: " + text);
    }
    if (!text.startsWith(name + ": ") || text.contains("\tat ")) {
      throw new AssertionError(
          name + " printed a line not starting with \"" + name + ": \", or a stack trace: " + text);
    }
    return text.trim();
  }
}
