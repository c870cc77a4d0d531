package org.spongefiles.server;

import java.io.PrintStream;
import java.util.List;
import org.spongefiles.daemon.DaemonLauncher;

/**
 * Runs a sponge server until the process is told to stop (SIGTERM runs a graceful shutdown).
 *
 * <pre>
 * java -cp ... org.spongefiles.server.ServerMain --conf sponge-site.xml [-Dkey=value ...]
 * </pre>
 */
public final class ServerMain {
  static final DaemonLauncher<SpongeServer> LAUNCHER =
      new DaemonLauncher<>("sponge-server", ServerMain.class, SpongeServer::start);

  private ServerMain() {}

  public static void main(String[] args) throws InterruptedException {
    LAUNCHER.run(args);
  }

  /** See {@link DaemonLauncher#launch}: null after one error line on {@code err}. */
  static SpongeServer launch(List<String> args, PrintStream err) {
    return LAUNCHER.launch(args, err);
  }
}
