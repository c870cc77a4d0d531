package org.spongefiles.it.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Looks for Pig's bag spill files ({@code pigbag*}, which Pig's bags create in {@code
 * java.io.tmpdir}) under a directory every 100 ms while a job runs: a YARN container's {@code
 * java.io.tmpdir} is its working directory's {@code tmp}, deleted with the container, so the files
 * are seen while they exist. Counts the distinct files seen and the most bytes they held at once.
 * Files already there when the watch starts are an earlier run's (on Tez, its containers'
 * directories outlive the Pig client for a moment) and are not counted.
 */
final class BagFileWatch implements AutoCloseable {
  private static final long PERIOD_MILLIS = 100;

  private final Path root;
  private final Set<Path> seen = new HashSet<>();
  private final Set<Path> earlier = new HashSet<>();
  private final Thread thread;
  private volatile boolean running = true;
  private long maxBytes;

  private BagFileWatch(Path root) {
    this.root = root;
    this.thread = new Thread(this::loop, "pigbag-watch");
    this.thread.setDaemon(true);
  }

  static BagFileWatch start(Path root) {
    BagFileWatch watch = new BagFileWatch(root);
    watch.scan();
    synchronized (watch.seen) {
      watch.earlier.addAll(watch.seen);
      watch.seen.clear();
      watch.maxBytes = 0;
    }
    watch.thread.start();
    return watch;
  }

  private void loop() {
    while (running) {
      scan();
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void scan() {
    long[] bytes = {0};
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (file.getFileName().toString().startsWith("pigbag")) {
                synchronized (seen) {
                  if (earlier.contains(file)) {
                    return FileVisitResult.CONTINUE;
                  }
                  seen.add(file);
                }
                bytes[0] += attributes.size();
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException gone) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("Scanning " + root + " for pigbag files", e);
    }
    synchronized (seen) {
      maxBytes = Math.max(maxBytes, bytes[0]);
    }
  }

  /** Stops the watch after one last look. */
  void stop() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join();
    scan();
  }

  long files() {
    synchronized (seen) {
      return seen.size();
    }
  }

  /** The files seen, in name order. */
  List<Path> paths() {
    synchronized (seen) {
      return new ArrayList<>(new TreeSet<>(seen));
    }
  }

  long maxBytes() {
    synchronized (seen) {
      return maxBytes;
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (running) {
      stop();
    }
  }
}
