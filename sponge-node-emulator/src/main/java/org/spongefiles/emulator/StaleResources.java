package org.spongefiles.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Removes what an earlier emulator run left when it was killed before its {@link Teardown} could
 * run (SIGKILL, a lost machine session): the processes in its network namespaces and the
 * namespaces, memory cgroups, mounts (the nodes' tmpfs pools included), loop devices with their
 * throttle rules and images, found by their {@code spongebench-<pid>-} names whose process is gone.
 * A live run's resources are never touched.
 */
public final class StaleResources {
  private static final Pattern NAME = Pattern.compile("spongebench-(\\d+)-");

  private StaleResources() {}

  /** Removes the leftovers of dead runs; returns one line per thing removed. */
  public static List<String> clean() throws IOException {
    List<String> removed = new ArrayList<>();
    for (String line : HostCommand.attempt("ip", "netns", "list").output.split("\n")) {
      String name = line.trim().split("\\s+")[0];
      if (stale(name)) {
        // A dead run's daemons (sponge servers, ZooKeeper, tracker, Hadoop's daemons and
        // containers) outlive it in its namespaces.
        for (long pid : RackNetwork.killProcesses(name)) {
          removed.add("process " + pid + " in " + name);
        }
        HostCommand.run("ip", "netns", "del", name);
        removed.add("network namespace " + name);
      }
    }
    // The hosts files of a cluster's nodes, which ip netns exec mounts over /etc/hosts.
    Path netnsEtc = Path.of("/etc/netns");
    if (Files.isDirectory(netnsEtc)) {
      try (Stream<Path> dirs = Files.list(netnsEtc)) {
        for (Path etc : (Iterable<Path>) dirs::iterator) {
          if (stale(etc.getFileName().toString())) {
            deleteTree(etc);
            removed.add("file " + etc);
          }
        }
      }
    }
    if (Files.isDirectory(MemoryContainer.MEMORY)) {
      try (Stream<Path> groups = Files.list(MemoryContainer.MEMORY)) {
        for (Path group : (Iterable<Path>) groups::iterator) {
          if (stale(group.getFileName().toString())) {
            MemoryContainer.remove(group);
            removed.add("memory cgroup " + group);
          }
        }
      }
    }
    for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
      String[] fields = line.split(" ");
      if (fields.length > 1 && stale(Path.of(fields[1]).getFileName() + "")) {
        HostCommand.run("umount", "-l", fields[1]);
        Files.deleteIfExists(Path.of(fields[1]));
        removed.add("mount " + fields[1]);
      }
    }
    HostCommand.Outcome loops =
        HostCommand.attempt("losetup", "--list", "--noheadings", "--output", "NAME,BACK-FILE");
    for (String line : loops.output.split("\n")) {
      String[] fields = line.trim().split("\\s+", 2);
      if (fields.length == 2 && stale(Path.of(fields[1]).getFileName() + "")) {
        String majorMinor =
            Files.readString(
                    Path.of("/sys/class/block", Path.of(fields[0]).getFileName() + "", "dev"))
                .trim();
        for (String file :
            List.of(
                "read_bps_device", "write_bps_device", "read_iops_device", "write_iops_device")) {
          HostCommand.attempt(
              "sh",
              "-c",
              "echo '" + majorMinor + " 0' > " + EmulatedDisk.BLKIO + "/blkio.throttle." + file);
        }
        HostCommand.run("losetup", "-d", fields[0]);
        Files.deleteIfExists(Path.of(fields[1]));
        removed.add("loop device " + fields[0] + " on " + fields[1]);
      }
    }
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try (Stream<Path> files = Files.list(tmp)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (stale(file.getFileName().toString())) {
          deleteTree(file);
          removed.add("file " + file);
        }
      }
    }
    return removed;
  }

  public static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path :
          (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(path);
      }
    }
  }

  /** Whether {@code name} is an emulator name of a process that no longer runs. */
  static boolean stale(String name) {
    Matcher matcher = NAME.matcher(name);
    if (!matcher.lookingAt()) {
      return false;
    }
    long pid = Long.parseLong(matcher.group(1));
    return pid != ProcessHandle.current().pid()
        && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
  }
}
