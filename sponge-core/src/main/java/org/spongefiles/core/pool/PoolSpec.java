package org.spongefiles.core.pool;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/** Where a node's pool lives, and how to create it if it does not exist yet. */
public final class PoolSpec {
  private final Path dir;
  private final String name;
  private final long sizeBytes;
  private final int chunkSize;
  private final long segmentBytes;
  private final boolean create;
  private final String permissions;
  private final Duration lockTimeout;

  public PoolSpec(
      Path dir,
      String name,
      long sizeBytes,
      int chunkSize,
      long segmentBytes,
      boolean create,
      String permissions,
      Duration lockTimeout) {
    this.dir = Objects.requireNonNull(dir, "dir cannot be null");
    this.name = Objects.requireNonNull(name, "name cannot be null");
    this.sizeBytes = sizeBytes;
    this.chunkSize = chunkSize;
    this.segmentBytes = segmentBytes;
    this.create = create;
    this.permissions = Objects.requireNonNull(permissions, "permissions cannot be null");
    this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout cannot be null");
  }

  public Path dir() {
    return dir;
  }

  public String name() {
    return name;
  }

  public long sizeBytes() {
    return sizeBytes;
  }

  public int chunkSize() {
    return chunkSize;
  }

  public long segmentBytes() {
    return segmentBytes;
  }

  public boolean create() {
    return create;
  }

  public String permissions() {
    return permissions;
  }

  public Duration lockTimeout() {
    return lockTimeout;
  }

  /** The metadata file: {@code <dir>/<name>.meta}. */
  public Path metadataFile() {
    return dir.resolve(name + ".meta");
  }

  /** A copy that creates a missing pool or not. */
  public PoolSpec withCreate(boolean allowCreate) {
    return new PoolSpec(
        dir, name, sizeBytes, chunkSize, segmentBytes, allowCreate, permissions, lockTimeout);
  }

  @Override
  public String toString() {
    return metadataFile().toString();
  }

  /** A pool name with {@code ${user.name}} replaced by this process's OS user. */
  public static String expandUser(String name) {
    return name.replace("${user.name}", System.getProperty("user.name"));
  }
}
