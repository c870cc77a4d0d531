package org.spongefiles.server;

import java.util.Arrays;
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
    Configuration conf;
    try {
      conf = DaemonArguments.parse(Arrays.asList(args));
    } catch (IllegalArgumentException e) {
      System.err.println("sponge-server: " + e.getMessage());
      System.err.println("usage: ServerMain --conf sponge-site.xml [-Dkey=value ...]");
      System.exit(2);
      return;
    }
    SpongeServer server;
    try {
      server = SpongeServer.start(conf);
    } catch (ConfigException e) {
      System.err.println("sponge-server: " + e.getMessage());
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
}
