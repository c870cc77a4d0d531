package org.spongefiles.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.testkit.ChildJvm;

/** A sponge server in its own JVM ({@link ServerMain}), so tests can SIGSTOP or SIGKILL it. */
final class ServerProcess implements AutoCloseable {
  private final ChildJvm jvm;
  final String endpoint;

  private ServerProcess(ChildJvm jvm, String endpoint) {
    this.jvm = jvm;
    this.endpoint = endpoint;
  }

  static ServerProcess start(Configuration conf, Path stderr, List<String> jvmArgs, Class<?> main)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> entry : conf) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    ChildJvm jvm = ChildJvm.start(main, stderr, jvmArgs, args.toArray(new String[0]));
    String ready = jvm.awaitLine("READY", 60, TimeUnit.SECONDS);
    return new ServerProcess(jvm, ready.split(" ")[1]);
  }

  static ServerProcess start(Configuration conf, Path stderr)
      throws IOException, InterruptedException {
    return start(conf, stderr, List.of(), ServerMain.class);
  }

  ChildJvm jvm() {
    return jvm;
  }

  void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(jvm.pid())).start();
    kill.waitFor(10, TimeUnit.SECONDS);
  }

  void kill() throws InterruptedException {
    jvm.kill();
  }

  @Override
  public void close() throws InterruptedException {
    jvm.close();
  }
}
