package org.spongefiles.core.tier;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.hadoop.util.DiskChecker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local disk as a tier. Each SpongeFile gets one backing file that its disk chunks are appended to,
 * in the next of {@code sponge.disk.dirs} (by default the task's own local directories) that is
 * healthy and has room, round robin, so a task's spills spread over the node's disks. Each
 * directory is checked once with Hadoop's {@link DiskChecker}; one that fails the check or a write
 * is not used again by the task. A directory that would drop below {@code sponge.disk.reserve} free
 * bytes, or a task past {@code sponge.disk.limit}, counts as full.
 */
public final class DiskTier implements Tier {
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  private final String task;
  private final List<Path> dirs;
  private final long reserve;
  private final long limit;
  private final long recycleBytes;
  private final Deque<DiskBackingFile> recycled = new ArrayDeque<>();
  private long recycledSize;
  private final Set<Path> healthyDirs = ConcurrentHashMap.newKeySet();
  private final AtomicInteger nextDir = new AtomicInteger();
  private final Map<FileKey, DiskBackingFile> current = new ConcurrentHashMap<>();
  private final Map<FileKey, List<DiskBackingFile>> all = new ConcurrentHashMap<>();
  private final Set<Path> fullDirs = ConcurrentHashMap.newKeySet();
  private final AtomicLong used = new AtomicLong();

  public DiskTier(String task, List<Path> dirs, long reserve, long limit, long recycleBytes) {
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException("dirs cannot be empty");
    }
    this.task = task;
    this.dirs = List.copyOf(dirs);
    this.reserve = reserve;
    this.limit = limit;
    this.recycleBytes = recycleBytes;
  }

  @Override
  public TierKind kind() {
    return TierKind.DISK;
  }

  /**
   * Appends to {@code file}'s backing file. Stores of one file are serialized (a writer storing an
   * overflow chunk may meet an I/O thread storing the same file's queued chunk); stores of
   * different files run at once.
   */
  @Override
  public StoredChunk store(FileKey file, ByteBuffer data) throws IOException {
    synchronized (all.computeIfAbsent(file, f -> new ArrayList<>())) {
      return storeLocked(file, data);
    }
  }

  private StoredChunk storeLocked(FileKey file, ByteBuffer data) throws IOException {
    int length = data.remaining();
    if (limit > 0 && used.get() + length > limit) {
      return null;
    }
    DiskBackingFile backing = current.get(file);
    if (backing == null || !hasRoom(backing.dir(), length)) {
      backing = newBackingFile(file, length);
      if (backing == null) {
        return null;
      }
    }
    try {
      long offset = backing.append(data);
      used.addAndGet(length);
      return new DiskStoredChunk(backing, offset, length);
    } catch (InterruptedIOException e) {
      throw e; // the writer was interrupted; the device is fine
    } catch (IOException e) {
      // A full or failing device: don't append there again; the chain tries the next tier.
      fullDirs.add(backing.dir());
      current.remove(file);
      throw new IOException("Cannot write a chunk to " + backing.path() + ": " + e.getMessage(), e);
    }
  }

  private boolean hasRoom(Path dir, long length) {
    return !fullDirs.contains(dir) && new File(dir.toString()).getUsableSpace() - length >= reserve;
  }

  private DiskBackingFile newBackingFile(FileKey file, long length) throws IOException {
    List<DiskBackingFile> files = all.computeIfAbsent(file, f -> new ArrayList<>());
    DiskBackingFile reused = takeRecycled(length);
    if (reused != null) {
      synchronized (files) {
        files.add(reused);
      }
      current.put(file, reused);
      return reused;
    }
    Path dir = chooseDir(length);
    if (dir == null) {
      return null;
    }
    Path path = dir.resolve(task).resolve(file.pathName() + "-" + files.size() + ".sponge");
    DiskBackingFile backing;
    try {
      backing = new DiskBackingFile(path, dir);
    } catch (IOException e) {
      fullDirs.add(dir);
      throw new IOException("Cannot create " + path + ": " + e.getMessage(), e);
    }
    synchronized (files) {
      files.add(backing);
    }
    current.put(file, backing);
    return backing;
  }

  /** A kept backing file whose directory still has room, or null. */
  private synchronized DiskBackingFile takeRecycled(long length) {
    for (int i = 0; i < recycled.size(); i++) {
      DiskBackingFile candidate = recycled.pollFirst();
      recycledSize -= candidate.allocated();
      if (!fullDirs.contains(candidate.dir())
          && (candidate.allocated() >= length || hasRoom(candidate.dir(), length))) {
        candidate.reset();
        return candidate;
      }
      deleteQuietly(candidate);
    }
    return null;
  }

  /** Keeps {@code backing} for reuse if the budget allows; true when kept. */
  private synchronized boolean recycle(DiskBackingFile backing) {
    if (fullDirs.contains(backing.dir()) || recycledSize + backing.allocated() > recycleBytes) {
      return false;
    }
    recycled.addFirst(backing);
    recycledSize += backing.allocated();
    return true;
  }

  private static void deleteQuietly(DiskBackingFile backing) {
    try {
      backing.delete();
    } catch (IOException e) {
      LOG.warn("Could not delete {}: {}", backing.path(), e.toString());
    }
  }

  /** The next healthy directory with room for {@code length} bytes, or null. */
  private Path chooseDir(long length) {
    for (int i = 0; i < dirs.size(); i++) {
      Path dir = dirs.get(Math.floorMod(nextDir.getAndIncrement(), dirs.size()));
      if (isHealthy(dir) && hasRoom(dir, length)) {
        return dir;
      }
    }
    return null;
  }

  private boolean isHealthy(Path dir) {
    if (healthyDirs.contains(dir)) {
      return true;
    }
    if (fullDirs.contains(dir)) {
      return false;
    }
    try {
      DiskChecker.checkDir(new File(dir.toString()));
      healthyDirs.add(dir);
      return true;
    } catch (DiskChecker.DiskErrorException e) {
      LOG.warn("Not using {} for disk chunks: {}", dir, e.getMessage());
      fullDirs.add(dir);
      return false;
    }
  }

  @Override
  public void delete(FileKey file, List<StoredChunk> chunks) throws IOException {
    current.remove(file);
    List<DiskBackingFile> files = all.remove(file);
    long freed = 0;
    for (StoredChunk chunk : chunks) {
      freed += chunk.length();
    }
    used.addAndGet(-freed);
    if (files == null) {
      return;
    }
    IOException failure = null;
    for (DiskBackingFile backing : files) {
      if (recycle(backing)) {
        continue;
      }
      try {
        backing.delete();
      } catch (IOException e) {
        failure = e;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Backing files currently kept for {@code file} (for tests and diagnostics). */
  public List<Path> backingFiles(FileKey file) {
    List<Path> paths = new ArrayList<>();
    for (DiskBackingFile backing : all.getOrDefault(file, List.of())) {
      paths.add(backing.path());
    }
    return paths;
  }

  @Override
  public String remaining() {
    StringBuilder text = new StringBuilder();
    Set<Path> seen = new HashSet<>();
    for (Path dir : dirs) {
      if (seen.add(dir)) {
        long usable = new File(dir.toString()).getUsableSpace();
        text.append(text.length() == 0 ? "" : ", ")
            .append(dir)
            .append(fullDirs.contains(dir) ? " failed a write" : "")
            .append(" has ")
            .append(usable)
            .append(" bytes usable (reserve ")
            .append(reserve)
            .append(")");
      }
    }
    if (limit > 0) {
      text.append("; task used ")
          .append(used.get())
          .append(" of its ")
          .append(limit)
          .append(" byte limit");
    }
    return text.toString();
  }

  @Override
  public void close() throws IOException {
    for (FileKey file : new ArrayList<>(all.keySet())) {
      delete(file, List.of());
    }
    synchronized (this) {
      for (DiskBackingFile backing : recycled) {
        deleteQuietly(backing);
      }
      recycled.clear();
      recycledSize = 0;
    }
    for (Path dir : dirs) {
      Path taskDir = dir.resolve(task);
      if (Files.isDirectory(taskDir)) {
        try (Stream<Path> walk = Files.walk(taskDir)) {
          for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
            Files.deleteIfExists(p);
          }
        }
      }
    }
  }
}
