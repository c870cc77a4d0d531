package org.spongefiles.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test fixture started and wrote: closing it closes the started things in reverse order of
 * starting, then removes the directories and files, even when a close failed.
 *
 * <p>As a field {@code @RegisterExtension final TestResources resources = new TestResources();} it
 * closes after each test, after the test's own {@code @AfterEach} methods; fields initialised from
 * it ({@code private final Path dir = resources.shmDir("x");}) are then fresh for every test.
 */
public final class TestResources implements AutoCloseable, AfterEachCallback {
  private final List<AutoCloseable> started = new ArrayList<>();
  private final List<Path> paths = new ArrayList<>();

  /** Closes {@code resource} when this closes; returns it. */
  public <T extends AutoCloseable> T add(T resource) {
    started.add(resource);
    return resource;
  }

  /** A fresh directory on /dev/shm (see {@link TestDirs#newShmDir}), removed when this closes. */
  public Path shmDir(String prefix) {
    Path dir = TestDirs.newShmDir(prefix);
    paths.add(dir);
    return dir;
  }

  /** A new empty file (a child JVM's stderr, a site file), removed when this closes. */
  public Path tempFile(String prefix, String suffix) {
    try {
      Path file = Files.createTempFile(prefix, suffix);
      paths.add(file);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  @Override
  public void close() {
    IllegalStateException failed = null;
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        if (failed == null) {
          failed = new IllegalStateException("cannot close " + started.get(i), e);
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    started.clear();
    paths.forEach(TestDirs::deleteTree);
    paths.clear();
    if (failed != null) {
      throw failed;
    }
  }
}
