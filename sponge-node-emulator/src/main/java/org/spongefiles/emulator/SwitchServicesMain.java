package org.spongefiles.emulator;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import org.apache.curator.test.TestingServer;
import org.spongefiles.tracker.TrackerMain;

/**
 * The rack's services in its switch namespace: an embedded ZooKeeper (curator-test) on {@code
 * <port>}, then the distribution's memory tracker ({@link TrackerMain}) with the remaining
 * arguments, which prints its {@code READY} line. SIGTERM stops both.
 *
 * <pre>
 * java ... SwitchServicesMain &lt;zookeeper port&gt; &lt;zookeeper dir&gt; [-Dkey=value ...]
 * </pre>
 */
public final class SwitchServicesMain {
  private SwitchServicesMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2) {
      System.err.println(
          "usage: SwitchServicesMain <zookeeper port> <zookeeper dir> [-Dkey=value ...]");
      System.exit(2);
    }
    TestingServer zookeeper;
    try {
      zookeeper = new TestingServer(Integer.parseInt(args[0]), new File(args[1]));
    } catch (Exception e) {
      throw new IOException("ZooKeeper did not start on port " + args[0] + ": " + e, e);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    zookeeper.close();
                  } catch (IOException e) {
                    System.err.println("ZooKeeper close: " + e);
                  }
                },
                "zookeeper-shutdown"));
    System.out.println("ZOOKEEPER " + zookeeper.getPort());
    System.out.flush();
    TrackerMain.main(Arrays.copyOfRange(args, 2, args.length));
  }
}
