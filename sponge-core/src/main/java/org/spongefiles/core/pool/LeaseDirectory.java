package org.spongefiles.core.pool;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's lease files ({@link Lease}): {@code <pool dir>/sponge-leases/<lease id in hex>.lease},
 * one directory for every pool and user of the node (mode 1777, like /tmp), so the node's sponge
 * server can check any of its node's tasks. Answers whether a lease is alive, and removes the files
 * of dead ones.
 *
 * <p>Each JVM holds one lease per directory for its whole life ({@link #processLease}), released by
 * the kernel when it exits or dies. Its file stays until a {@link #sweep} (the node's sponge
 * server, or a task reclaiming orphans at start) finds it ended: deleting it from a shutdown hook
 * would end the lease while other hooks of the same JVM still change the pool under its lock.
 */
public final class LeaseDirectory {
  static final String NAME = "sponge-leases";
  static final String SUFFIX = ".lease";
  static final String TEMP_SUFFIX = ".tmp";
  private static final long STALE_TEMP_MILLIS = TimeUnit.MINUTES.toMillis(1);
  private static final Logger LOG = LoggerFactory.getLogger(LeaseDirectory.class);
  private static final Map<Path, Lease> PROCESS_LEASES = new ConcurrentHashMap<>();

  private final Path dir;

  private LeaseDirectory(Path dir) {
    this.dir = dir;
  }

  /** The lease directory of the pools in {@code poolDir}. */
  public static LeaseDirectory beside(Path poolDir) {
    return new LeaseDirectory(poolDir.toAbsolutePath().normalize().resolve(NAME));
  }

  public Path path() {
    return dir;
  }

  /**
   * This JVM's lease in this directory, taken (and the directory created) on first use and held
   * until the JVM ends.
   *
   * @throws IOException when the directory cannot be created or a lease file written there
   */
  public Lease processLease() throws IOException {
    Lease lease = PROCESS_LEASES.get(dir);
    if (lease != null) {
      return lease;
    }
    synchronized (PROCESS_LEASES) {
      lease = PROCESS_LEASES.get(dir);
      if (lease == null) {
        lease = acquire();
        PROCESS_LEASES.put(dir, lease);
      }
      return lease;
    }
  }

  /** A new lease of its own, for the caller to close. */
  public Lease acquire() throws IOException {
    ensureExists();
    try {
      return Lease.acquire(dir);
    } catch (IOException e) {
      throw new IOException("Cannot take a lease in " + dir + ": " + e, e);
    }
  }

  /**
   * Whether lease {@code id} is held by a live process. A lease of this JVM is alive while its file
   * exists (its file is never opened here, see {@link HeldLeases}); another process's is alive
   * while its file exists and a shared lock on it cannot be had. When the file cannot be read the
   * answer is alive: a live task's chunks are never freed on a guess.
   */
  public boolean isAlive(long id) {
    if (id == 0) {
      return false;
    }
    if (HeldLeases.holds(id)) {
      return true;
    }
    Path file = dir.resolve(fileName(id));
    if (HeldLeases.isThisJvm(id)) {
      return (int) id == 0 || Files.exists(file); // low bits 0: the JVM's file-less lease
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
      if (probe == null) {
        return true;
      }
      probe.release();
      return false;
    } catch (NoSuchFileException e) {
      return false;
    } catch (OverlappingFileLockException e) {
      return true; // this JVM holds it after all
    } catch (IOException e) {
      LOG.warn(
          "Cannot tell whether lease file {} is held; counting it alive: {}", file, e.toString());
      return true;
    }
  }

  /**
   * Deletes the files of dead leases, and temporary files older than a minute that no one holds.
   *
   * @return how many files were deleted
   */
  public int sweep() {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    int deleted = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        if (isDeadLeaseFile(file)) {
          try {
            Files.deleteIfExists(file);
            deleted++;
          } catch (IOException e) {
            LOG.debug("Cannot delete dead lease file {}: {}", file, e.toString());
          }
        }
      }
    } catch (IOException e) {
      LOG.debug("Cannot list lease directory {}: {}", dir, e.toString());
    }
    return deleted;
  }

  private boolean isDeadLeaseFile(Path file) {
    String name = file.getFileName().toString();
    if (name.endsWith(SUFFIX)) {
      Long id = parseId(name);
      return id != null && !isAlive(id);
    }
    if (name.endsWith(SUFFIX + TEMP_SUFFIX)) {
      Long id = parseId(name.substring(0, name.length() - TEMP_SUFFIX.length()));
      try {
        long age = System.currentTimeMillis() - Files.getLastModifiedTime(file).toMillis();
        return id != null && age > STALE_TEMP_MILLIS && !HeldLeases.isThisJvm(id);
      } catch (IOException e) {
        return false;
      }
    }
    return false;
  }

  /** The file name of lease {@code id}: 16 hex digits and {@value #SUFFIX}. */
  static String fileName(long id) {
    return String.format("%016x%s", id, SUFFIX);
  }

  private static Long parseId(String name) {
    String hex = name.substring(0, name.length() - SUFFIX.length());
    try {
      return hex.length() == 16 ? Long.parseUnsignedLong(hex, 16) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private void ensureExists() throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    if (!Files.isDirectory(dir.getParent())) {
      throw new NoSuchFileException(
          dir.getParent().toString(),
          null,
          "pool directory (sponge.pool.dir) does not exist, so its lease directory cannot be made");
    }
    try {
      Files.createDirectory(dir);
      // Every user's tasks take leases here; the sticky bit keeps each user's files its own.
      Files.setAttribute(dir, "unix:mode", 01777);
    } catch (FileAlreadyExistsException raced) {
      // another process made it first
    } catch (UnsupportedOperationException e) {
      LOG.debug("File system of {} has no unix modes", dir);
    }
  }

  @Override
  public String toString() {
    return dir.toString();
  }
}
