package org.spongefiles.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What of the node emulator can run on this host, probed at start: every missing piece is named in
 * one line with the reason, and the benchmarks run only the rows that do not need it, never
 * skipping anything silently.
 */
public final class EmulatorSupport {
  /** The emulator's pieces. */
  public enum Piece {
    DISK_CLASSES("disk classes (loop device, ext4, blkio throttle)"),
    CONTAINERS("memory containers (cgroup v1 memory)"),
    RACK_NETWORK("rack network (netns, veth, bridge, tc htb)");

    public final String description;

    Piece(String description) {
      this.description = description;
    }
  }

  private final List<Piece> available = new ArrayList<>();
  private final List<String> missing = new ArrayList<>();

  private EmulatorSupport() {}

  /** Probes every piece on this host. */
  public static EmulatorSupport probe() {
    EmulatorSupport support = new EmulatorSupport();
    String root = root();
    support.check(Piece.DISK_CLASSES, root != null ? root : diskReason());
    support.check(Piece.CONTAINERS, root != null ? root : containerReason());
    support.check(Piece.RACK_NETWORK, root != null ? root : networkReason());
    return support;
  }

  private void check(Piece piece, String reason) {
    if (reason == null) {
      available.add(piece);
    } else {
      missing.add(piece.description + " not available: " + reason);
    }
  }

  public boolean has(Piece piece) {
    return available.contains(piece);
  }

  /** One line per missing piece, with the reason; empty when everything can run. */
  public List<String> missing() {
    return missing;
  }

  private static String root() {
    try {
      String uid = HostCommand.run("id", "-u").trim();
      return uid.equals("0") ? null : "needs root (running as uid " + uid + ")";
    } catch (IOException e) {
      return "cannot tell the user id: " + e.getMessage();
    }
  }

  private static String diskReason() {
    for (String tool : List.of("losetup", "mkfs.ext4", "mount", "truncate")) {
      String reason = tool(tool);
      if (reason != null) {
        return reason;
      }
    }
    if (!Files.exists(Path.of("/dev/loop-control"))) {
      return "no /dev/loop-control (loop devices)";
    }
    try {
      if (!HostCommand.run("losetup", "--help").contains("--direct-io")) {
        return "losetup has no --direct-io";
      }
    } catch (IOException e) {
      return e.getMessage();
    }
    Path limit = EmulatedDisk.BLKIO.resolve("blkio.throttle.write_bps_device");
    return Files.isWritable(limit) ? null : "no writable " + limit + " (cgroup v1 blkio)";
  }

  private static String containerReason() {
    Path limit = MemoryContainer.MEMORY.resolve("memory.limit_in_bytes");
    return Files.isDirectory(MemoryContainer.MEMORY) && Files.exists(limit)
        ? null
        : "no cgroup v1 memory controller at " + MemoryContainer.MEMORY;
  }

  private static String networkReason() {
    for (String tool : List.of("ip", "tc")) {
      String reason = tool(tool);
      if (reason != null) {
        return reason;
      }
    }
    String probe = Teardown.prefix() + "probe";
    try {
      HostCommand.run("ip", "netns", "add", probe);
      try {
        HostCommand.run("ip", "-n", probe, "link", "add", "name", "br0", "type", "bridge");
        HostCommand.run(
            "ip", "-n", probe, "link", "add", "name", "probe0", "type", "veth", "peer", "name",
            "probe1");
        HostCommand.run(
            "tc", "-n", probe, "qdisc", "add", "dev", "probe0", "root", "handle", "1:", "htb");
        return null;
      } finally {
        HostCommand.attempt("ip", "netns", "del", probe);
      }
    } catch (IOException e) {
      return e.getMessage();
    }
  }

  private static String tool(String name) {
    try {
      return HostCommand.attempt("sh", "-c", "command -v " + name).ok()
          ? null
          : "no '" + name + "' on the PATH";
    } catch (IOException e) {
      return e.getMessage();
    }
  }
}
