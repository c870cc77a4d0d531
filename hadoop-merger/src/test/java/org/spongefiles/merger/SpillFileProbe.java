package org.spongefiles.merger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Watches a task's local directories while a job runs and remembers every reduce-side spill file
 * Hadoop's merger would write there: fetched map outputs ({@code map_<n>.out}, with a fetcher
 * suffix while being written) and merge outputs ({@code *.merged}). Map-side files ({@code
 * file.out}, {@code spill<n>.out}) do not match.
 */
final class SpillFileProbe implements AutoCloseable {
  private static final Pattern REDUCE_SPILL = Pattern.compile("map_\\d+\\.out.*|.*\\.merged");

  private final Path dir;
  private final Set<String> seen = new TreeSet<>();
  private final Thread poller;
  private volatile boolean running = true;

  private SpillFileProbe(Path dir) {
    this.dir = dir;
    this.poller = new Thread(this::poll, "spill-file-probe");
    poller.setDaemon(true);
  }

  static SpillFileProbe watch(Path dir) {
    SpillFileProbe probe = new SpillFileProbe(dir);
    probe.poller.start();
    return probe;
  }

  private void poll() {
    while (running) {
      scan();
      try {
        Thread.sleep(5);
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
      walk.filter(p -> REDUCE_SPILL.matcher(p.getFileName().toString()).matches())
          .forEach(
              p -> {
                synchronized (seen) {
                  seen.add(p.getFileName().toString());
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

  /** Stops watching, after one last look. Idempotent. */
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
