package org.spongefiles.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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

  /**
   * Bytes the files directly in {@code dir} really hold, as stat(1) counts their blocks: a tmpfs
   * file gets a page only when it is first touched.
   */
  public static long allocatedBytes(Path dir) {
    long total = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Process stat = new ProcessBuilder("stat", "-c", "%b %B", file.toString()).start();
        String[] out =
            new String(stat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
                .trim()
                .split(" ");
        if (stat.waitFor() != 0) {
          throw new IOException("stat " + file + " exited " + stat.exitValue());
        }
        total += Long.parseLong(out[0]) * Long.parseLong(out[1]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running stat in " + dir, e);
    }
    return total;
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
