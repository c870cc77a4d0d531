package org.spongefiles.core.pool;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proof that a process is alive, which holds in any pid namespace: a file in a {@link
 * LeaseDirectory} on which this process holds an exclusive OS lock ({@code fcntl}). The kernel
 * drops the lock when the process dies, however it dies, so another process that can take a shared
 * lock on the file knows the holder is gone. Chunk owners and the pool lock name their process by
 * its lease id.
 *
 * <p>The file is created under a temporary name, locked, and only then linked under its lease name,
 * so no one ever sees a lease file that is not locked yet. {@link #close} deletes it.
 */
public final class Lease implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Lease.class);
  private static final int ATTEMPTS = 8;

  private final long id;
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Lease(long id, Path file, FileChannel channel, FileLock lock) {
    this.id = id;
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes a new lease in {@code dir}, which must exist. */
  static Lease acquire(Path dir) throws IOException {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      long id = HeldLeases.newId();
      Path file = dir.resolve(LeaseDirectory.fileName(id));
      Path temp = dir.resolve(LeaseDirectory.fileName(id) + LeaseDirectory.TEMP_SUFFIX);
      FileChannel channel =
          FileChannel.open(
              temp,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      boolean published = false;
      try {
        FileLock lock = channel.lock();
        channel.write(ByteBuffer.wrap(describe().getBytes(StandardCharsets.UTF_8)));
        // Readable by all: other users' processes (the node's sponge server) take a shared lock
        // to test it; only the holder's user can take the exclusive one that would fake a life.
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
        try {
          Files.createLink(file, temp);
        } catch (FileAlreadyExistsException taken) {
          continue;
        }
        HeldLeases.add(id);
        published = true;
        return new Lease(id, file, channel, lock);
      } finally {
        try {
          Files.deleteIfExists(temp); // by name: never closes a descriptor, so the lock stays
        } catch (IOException e) {
          // A published lease stands; a stale temporary file is swept after a minute.
          LOG.debug("Cannot delete temporary lease file {}: {}", temp, e.toString());
        }
        if (!published) {
          channel.close();
        }
      }
    }
    throw new IOException(
        "Could not take a lease in " + dir + ": " + ATTEMPTS + " fresh lease ids were all taken");
  }

  private static String describe() {
    return "pid "
        + ProcessLiveness.currentPid()
        + " (as its own pid namespace sees it), started "
        + ProcessLiveness.currentStartMillis()
        + " ms after the epoch\n";
  }

  /**
   * A lease id held for this JVM's life without a file: alive to this JVM, dead to every other. For
   * identities of daemons and tools that hold no chunks.
   */
  public static long jvmLocalId() {
    return HeldLeases.jvmLocal();
  }

  /** The lease id chunk owners and the pool lock record. */
  public long id() {
    return id;
  }

  public Path file() {
    return file;
  }

  /** Ends the lease: deletes its file and drops the lock. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    HeldLeases.remove(id);
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.debug("Deleting lease file {}: {}", file, e.toString());
    }
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      LOG.debug("Releasing lease file {}: {}", file, e.toString());
    }
  }

  @Override
  public String toString() {
    return "lease " + LeaseDirectory.fileName(id) + (closed.get() ? " (closed)" : "");
  }
}
