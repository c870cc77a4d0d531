package org.spongefiles.daemon;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ConfigException;

/**
 * Runs a daemon from its {@code main}: reads {@code --conf sponge-site.xml [-Dkey=value ...]},
 * starts the daemon, prints {@code READY endpoint port metricsPort} on stdout and waits until the
 * process is told to stop (SIGTERM closes the daemon). A bad command line or configuration, a port
 * in use or an unusable pool prints ONE line naming the key and value (no stack trace) on stderr
 * and exits 2.
 *
 * @param <D> the daemon
 */
public final class DaemonLauncher<D extends RunningDaemon> {
  /** Starts the daemon from a configuration. */
  public interface Starter<D> {
    D start(Configuration conf) throws IOException;
  }

  private final String name;
  private final String mainClass;
  private final Starter<D> starter;

  /**
   * @param name what error lines start with and the shutdown thread is called (sponge-server)
   * @param mainClass the class named in the usage line
   */
  public DaemonLauncher(String name, Class<?> mainClass, Starter<D> starter) {
    this.name = name;
    this.mainClass = mainClass.getSimpleName();
    this.starter = starter;
  }

  /** Starts the daemon and serves until SIGTERM; exits 2 when it cannot start. */
  public void run(String[] args) throws InterruptedException {
    D daemon = launch(Arrays.asList(args), System.err);
    if (daemon == null) {
      System.exit(2);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  daemon.close();
                  stopped.countDown();
                },
                name + "-shutdown"));
    System.out.println(
        "READY "
            + daemon.endpoint()
            + " "
            + daemon.address().getPort()
            + " "
            + daemon.metricsPort());
    System.out.flush();
    stopped.await();
  }

  /**
   * Reads the command line and configuration and starts the daemon; when it cannot, prints one line
   * to {@code err} and returns null.
   */
  public D launch(List<String> args, PrintStream err) {
    Configuration conf;
    try {
      conf = DaemonArguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println(name + ": " + oneLine(e.getMessage()));
      err.println("usage: " + mainClass + " --conf sponge-site.xml [-Dkey=value ...]");
      return null;
    } catch (RuntimeException e) {
      err.println(
          name + ": cannot read the configuration: " + oneLine(String.valueOf(e.getMessage())));
      return null;
    }
    try {
      return starter.start(conf);
    } catch (ConfigException e) {
      err.println(name + ": " + oneLine(e.getMessage()));
    } catch (IOException | RuntimeException e) {
      err.println(name + ": cannot start: " + oneLine(e.toString()));
    }
    return null;
  }

  private static String oneLine(String message) {
    return message.replaceAll("\\s*\\R\\s*", " ");
  }
}
