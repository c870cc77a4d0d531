package org.spongefiles.server;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.DaemonArguments;

/**
 * Runs a sponge server until the process is told to stop (SIGTERM runs a graceful shutdown).
 *
 * <pre>
 * java -cp ... org.spongefiles.server.ServerMain --conf sponge-site.xml [-Dkey=value ...]
 * </pre>
 */
public final class ServerMain {
  private ServerMain() {}

  public static void main(String[] args) throws Exception {
    SpongeServer server = launch(Arrays.asList(args), System.err);
    if (server == null) {
      System.exit(2);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "sponge-server-shutdown"));
    System.out.println(
        "READY "
            + server.endpoint()
            + " "
            + server.address().getPort()
            + " "
            + server.metricsPort());
    System.out.flush();
    stopped.await();
  }

  /**
   * Reads the command line and configuration and starts the daemon; on a bad command line or
   * configuration, a port in use or an unusable pool, prints ONE line naming the key and value (no
   * stack trace) to {@code err} and returns null.
   */
  static SpongeServer launch(List<String> args, PrintStream err) {
    Configuration conf;
    try {
      conf = DaemonArguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("sponge-server: " + oneLine(e.getMessage()));
      err.println("usage: ServerMain --conf sponge-site.xml [-Dkey=value ...]");
      return null;
    } catch (RuntimeException e) {
      err.println(
          "sponge-server: cannot read the configuration: "
              + oneLine(String.valueOf(e.getMessage())));
      return null;
    }
    try {
      return SpongeServer.start(conf);
    } catch (ConfigException e) {
      err.println("sponge-server: " + oneLine(e.getMessage()));
    } catch (IOException | RuntimeException e) {
      err.println("sponge-server: cannot start: " + oneLine(e.toString()));
    }
    return null;
  }

  private static String oneLine(String message) {
    return message.replaceAll("\\s*\\R\\s*", " ");
  }
}
