package org.spongefiles.it.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.spongefiles.testkit.TestDirs;

/**
 * The machine's {@code /dev/shm}, where a task that does not see its node's {@code sponge.pool.dir}
 * opens the default pool and takes its lease ({@code sponge-leases}): the emulated nodes' pools are
 * directories of the cluster's own, so a cluster run adds nothing there. Tests' own directories
 * ({@code sponge-test-*}, {@link TestDirs#newShmDir}) are not the cluster's and are left out.
 */
final class MachineShm {
  static final Path SHM = Path.of("/dev/shm");
  private static final String LEASES = "sponge-leases";
  private static final String TEST_DIRS = "sponge-test-";

  private MachineShm() {}

  /** The entries of /dev/shm and of its lease directory, as paths relative to /dev/shm. */
  static Set<String> entries() throws IOException {
    Set<String> names = new TreeSet<>(names(SHM));
    if (Files.isDirectory(SHM.resolve(LEASES))) {
      for (String lease : names(SHM.resolve(LEASES))) {
        names.add(LEASES + "/" + lease);
      }
    }
    names.removeIf(name -> name.startsWith(TEST_DIRS));
    return names;
  }

  /**
   * Fails naming the entries that are in /dev/shm now and were not in {@code before}, after
   * removing them (a pool's files and leases the run's tasks left there).
   */
  static void assertNoneAdded(Set<String> before, String run) throws IOException {
    Set<String> added = new TreeSet<>(entries());
    added.removeAll(before);
    if (added.isEmpty()) {
      return;
    }
    for (String name : added) {
      TestDirs.deleteTree(SHM.resolve(name));
    }
    throw new AssertionError(
        run
            + " left "
            + added
            + " in the machine's "
            + SHM
            + " (removed now): its tasks did not use their nodes' pools");
  }

  private static List<String> names(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).collect(Collectors.toList());
    }
  }
}
