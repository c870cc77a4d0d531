package org.spongefiles.testkit.mapreduce;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Watches a job's local directories ({@code mapreduce.cluster.local.dir}) while it runs and
 * remembers every file a reduce attempt writes there, whatever its name. LocalJobRunner gives each
 * attempt a directory named after it ({@code .../jobcache/<job>/<attempt>/}, the attempt's own
 * {@code mapreduce.cluster.local.dir}), and Hadoop's reduce side writes every local file below it
 * through {@code LocalDirAllocator}: fetched map outputs ({@code output/map_<n>.out}), on-disk
 * merges ({@code *.merged}) and the rounds of a merge with more segments than its factor ({@code
 * <attempt>/intermediate.<n>}). Files below a map attempt's directory do not count.
 *
 * <p>Files are seen two ways: inotify events from every directory that may hold reduce-side files,
 * which name a file even when it is deleted at once (so a short-lived file is seen whenever its
 * directory existed a moment before it), and a walk of the tree every 5 ms, which finds new
 * directories to watch and whatever an event overflow lost.
 */
public final class SpillFileProbe implements AutoCloseable {
  private static final Pattern REDUCE_ATTEMPT = Pattern.compile("attempt_.+_r_\\d+_\\d+");
  private static final Pattern MAP_ATTEMPT = Pattern.compile("attempt_.+_m_\\d+_\\d+");
  private static final long WALK_MILLIS = 5;

  private final Path root;
  private final WatchService events;
  private final Map<WatchKey, Path> watched = new HashMap<>();
  private final Set<Path> watchedDirs = new HashSet<>();
  private final Set<String> seen = new TreeSet<>();
  private final Thread poller;
  private volatile boolean running = true;
  private boolean closed;

  private SpillFileProbe(Path root) throws IOException {
    this.root = root;
    this.events = root.getFileSystem().newWatchService();
    this.poller = new Thread(this::poll, "spill-file-probe");
    poller.setDaemon(true);
  }

  /** Watches {@code root}; whatever exists below it is watched when this returns. */
  public static SpillFileProbe watch(Path root) throws IOException {
    SpillFileProbe probe = new SpillFileProbe(root);
    probe.scan(root);
    probe.poller.start();
    return probe;
  }

  private void poll() {
    long nextWalk = System.nanoTime();
    while (running) {
      try {
        drainEvents(WALK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      // Events may come in bursts (a thousand map attempts starting): walk no more often anyway.
      if (System.nanoTime() - nextWalk >= 0) {
        scan(root);
        nextWalk = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WALK_MILLIS);
      }
    }
  }

  private void drainEvents(long waitMillis) throws InterruptedException {
    WatchKey key = events.poll(waitMillis, TimeUnit.MILLISECONDS);
    while (key != null) {
      Path dir = watched.get(key);
      for (WatchEvent<?> event : key.pollEvents()) {
        if (event.kind() != OVERFLOW && dir != null) {
          Path created = dir.resolve((Path) event.context());
          if (Files.isDirectory(created)) {
            scan(created);
          } else {
            record(created);
          }
        }
      }
      if (!key.reset()) {
        watchedDirs.remove(watched.remove(key));
      }
      key = events.poll();
    }
  }

  /** Watches every directory below {@code top} that may hold reduce-side files, records files. */
  private void scan(Path top) {
    if (!Files.isDirectory(top)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(top)) {
      walk.forEach(this::visit);
    } catch (IOException | UncheckedIOException e) {
      // Files come and go while the job runs; the next scan sees the directory again.
    }
  }

  private void visit(Path path) {
    if (!Files.isDirectory(path)) {
      record(path);
    } else if (!watchedDirs.contains(path) && named(path, MAP_ATTEMPT, true) < 0) {
      try {
        watched.put(path.register(events, ENTRY_CREATE), path);
        watchedDirs.add(path);
      } catch (IOException e) {
        // Deleted since the walk saw it.
      }
    }
  }

  private void record(Path file) {
    int attempt = named(file, REDUCE_ATTEMPT, false);
    if (attempt >= 0) {
      Path relative = root.relativize(file);
      synchronized (seen) {
        seen.add(relative.subpath(attempt, relative.getNameCount()).toString());
      }
    }
  }

  /**
   * Index (from the root) of the first directory above {@code path}, or {@code path} itself when
   * {@code itself}, whose name matches {@code dir}; -1 when there is none.
   */
  private int named(Path path, Pattern dir, boolean itself) {
    Path relative = root.relativize(path);
    int names = relative.getNameCount() - (itself ? 0 : 1);
    for (int i = 0; i < names; i++) {
      if (dir.matcher(relative.getName(i).toString()).matches()) {
        return i;
      }
    }
    return -1;
  }

  /** Reduce-side files seen so far, as paths from their attempt's directory. */
  public Set<String> seen() {
    synchronized (seen) {
      return new TreeSet<>(seen);
    }
  }

  /** Stops watching, after the pending events and one last look. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    running = false;
    try {
      poller.join();
      drainEvents(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    scan(root);
    try {
      events.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
