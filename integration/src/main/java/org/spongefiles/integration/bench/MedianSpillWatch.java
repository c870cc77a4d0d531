package org.spongefiles.integration.bench;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Watches a job's local directories while it runs and remembers the reduce-side spill files
 * Hadoop's merger writes there: fetched map outputs ({@code map_<n>.out}, with a fetcher suffix
 * while being written) and merge outputs ({@code *.merged}). Map-side files do not match.
 */
final class MedianSpillWatch implements Closeable {
  private static final Pattern REDUCE_SPILL = Pattern.compile("map_\\d+\\.out.*|.*\\.merged");

  private final Path dir;
  private final Set<String> seen = new TreeSet<>();
  private final Thread poller;
  private volatile boolean running = true;

  private MedianSpillWatch(Path dir) {
    this.dir = dir;
    this.poller = new Thread(this::poll, "median-spill-watch");
    poller.setDaemon(true);
  }

  static MedianSpillWatch start(Path dir) {
    MedianSpillWatch watch = new MedianSpillWatch(dir);
    watch.poller.start();
    return watch;
  }

  private void poll() {
    while (running) {
      scan();
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void scan() {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.map(p -> p.getFileName().toString())
          .filter(name -> REDUCE_SPILL.matcher(name).matches())
          .forEach(
              name -> {
                synchronized (seen) {
                  seen.add(name);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      // Files come and go while the job runs; the next scan sees the directory again.
    }
  }

  /** Names of the reduce-side spill files seen so far. */
  Set<String> seen() {
    synchronized (seen) {
      return new TreeSet<>(seen);
    }
  }

  /** Stops watching after one last look. Idempotent. */
  @Override
  public void close() {
    running = false;
    try {
      poller.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    scan();
  }
}
