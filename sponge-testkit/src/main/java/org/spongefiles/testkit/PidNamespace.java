package org.spongefiles.testkit;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs child JVMs in a pid namespace of their own, as YARN's Docker runtime starts tasks: {@code
 * unshare --pid --fork --mount-proc}, the JVM pid 1 of its namespace with its own /proc. Needs root
 * and util-linux's unshare; {@link #unavailable()} says why not when either is missing.
 */
public final class PidNamespace {
  public static final List<String> WRAPPER = List.of("unshare", "--pid", "--fork", "--mount-proc");

  private PidNamespace() {}

  /** Skips the calling test, saying why, where {@link #unavailable()} says namespaces are. */
  public static void assumeAvailable() {
    String reason = unavailable();
    Assumptions.assumeTrue(reason == null, () -> "pid namespace tests skipped: " + reason);
  }

  /** Null when namespaced children can be started here, else the reason they cannot. */
  public static String unavailable() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return "a pid namespace of its own needs root (running as "
          + System.getProperty("user.name")
          + ")";
    }
    try {
      Process probe =
          new ProcessBuilder(
                  List.of("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", "echo $$"))
              .redirectErrorStream(true)
              .start();
      if (!probe.waitFor(20, TimeUnit.SECONDS)) {
        probe.destroyForcibly();
        return "unshare --pid --fork --mount-proc did not finish in 20 s";
      }
      String out = new String(probe.getInputStream().readAllBytes()).trim();
      if (probe.exitValue() != 0 || !out.equals("1")) {
        return "unshare --pid --fork --mount-proc failed (exit " + probe.exitValue() + "): " + out;
      }
      return null;
    } catch (IOException e) {
      return "unshare is unavailable: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted probing unshare";
    }
  }
}
