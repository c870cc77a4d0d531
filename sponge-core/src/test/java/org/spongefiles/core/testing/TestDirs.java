package org.spongefiles.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Directories for tests: pool directories on a real tmpfs when the machine has one. */
public final class TestDirs {
  private TestDirs() {}

  /** A fresh directory under /dev/shm (a tmpfs, like production), else under java.io.tmpdir. */
  public static Path newShmDir(String prefix) {
    try {
      Path shm = Path.of("/dev/shm");
      if (Files.isDirectory(shm) && Files.isWritable(shm)) {
        return Files.createTempDirectory(shm, "sponge-test-" + prefix + "-");
      }
      return Files.createTempDirectory("sponge-test-" + prefix + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes a directory tree; missing paths are fine. */
  public static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Number of regular files under {@code dir} (0 when it does not exist). */
  public static long countFiles(Path dir) {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
