package org.spongefiles.emulator;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child JVM of {@link NodeEmulatorTest}: {@code cgroup} prints the memory cgroup it runs in;
 * {@code echo} answers one line on port 7000 with the line and the peer's address; {@code leak}
 * makes a memory container and a one-node rack, prints their names and waits to be killed (SIGTERM
 * must remove them through its shutdown hook, SIGKILL leaves them for {@link StaleResources}).
 */
public final class NodeEmulatorChild {
  private NodeEmulatorChild() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("cgroup")) {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        if (line.split(":")[1].equals("memory")) {
          System.out.println("CGROUP " + line.split(":")[2]);
        }
      }
      return;
    }
    if (args[0].equals("echo")) {
      try (ServerSocket server = new ServerSocket(7000)) {
        System.out.println("LISTENING");
        System.out.flush();
        try (Socket peer = server.accept()) {
          String line =
              new BufferedReader(
                      new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8))
                  .readLine();
          peer.getOutputStream()
              .write(
                  (line + " from " + peer.getInetAddress() + "\n")
                      .getBytes(StandardCharsets.UTF_8));
        }
      }
      return;
    }
    MemoryContainer container = MemoryContainer.create("leak", 64L << 20);
    RackNetwork rack = RackNetwork.create(7, 1, 1_000_000_000L);
    System.out.println("READY " + container.group + " " + String.join(" ", rack.namespaces()));
    System.out.flush();
    Thread.sleep(60_000);
  }
}
