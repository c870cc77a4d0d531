package org.spongefiles.daemon.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.daemon.RunningDaemon;

/** Starts a daemon's entry in-process, as its script would, for tests of what it refuses. */
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
      BiFunction<List<String>, PrintStream, ? extends RunningDaemon> launch,
      List<String> args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    RunningDaemon daemon = launch.apply(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    if (daemon != null) {
      daemon.close();
      throw new AssertionError(name + " started with " + args);
    }
    String text = err.toString(StandardCharsets.UTF_8);
    assertThat(text.lines()).hasSize(1);
    assertThat(text).startsWith(name + ": ").doesNotContain("\tat ");
    return text.trim();
  }
}
