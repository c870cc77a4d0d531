package org.spongefiles.server.pooladmin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The live processes that map a pool's files, read from {@code /proc/<pid>/maps}: a sponge server
 * and every task using the pool map its metadata and segments. Processes of other users are seen
 * only by root; they cannot map a pool whose files are {@code rw-------} anyway.
 */
final class PoolUsers {
  private PoolUsers() {}

  /** Pids (this process excluded) with one of {@code files} mapped. */
  static Set<Long> of(List<Path> files, Path proc) throws IOException {
    Set<String> paths =
        files.stream()
            .map(p -> p.toAbsolutePath().normalize().toString())
            .collect(Collectors.toSet());
    long self = ProcessHandle.current().pid();
    Set<Long> users = new TreeSet<>();
    try (Stream<Path> entries = Files.list(proc)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String name = entry.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == self) {
          continue;
        }
        if (maps(entry.resolve("maps"), paths)) {
          users.add(Long.parseLong(name));
        }
      }
    }
    return users;
  }

  private static boolean maps(Path maps, Set<String> paths) {
    try (Stream<String> lines = Files.lines(maps)) {
      return lines.anyMatch(
          line -> {
            int slash = line.indexOf('/');
            return slash >= 0 && paths.contains(line.substring(slash).replace(" (deleted)", ""));
          });
    } catch (IOException | java.io.UncheckedIOException e) {
      return false; // gone, or another user's process
    }
  }
}
