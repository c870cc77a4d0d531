package org.spongefiles.workloads.pig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch directories of the Pig workloads. */
public final class PigFiles {
  private PigFiles() {}

  /** A fresh directory on /dev/shm (a tmpfs, where a node's pool lives), else in java.io.tmpdir. */
  public static Path newShmDir(String prefix) throws IOException {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm)
        ? Files.createTempDirectory(shm, prefix)
        : Files.createTempDirectory(prefix);
  }

  /** Deletes a directory tree; a missing one is fine. */
  public static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + root, e);
    }
  }
}
