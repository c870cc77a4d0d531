package org.spongefiles.core.tier;

import java.util.Objects;

/**
 * Identifies one SpongeFile to the tiers that keep per-file state (the disk tier's backing file,
 * the DFS tier's stream). {@link #pathName()} is safe to use in a file name.
 */
public final class FileKey {
  private final String task;
  private final long sequence;
  private final String name;

  public FileKey(String task, long sequence, String name) {
    this.task = Objects.requireNonNull(task, "task cannot be null");
    this.sequence = sequence;
    this.name = Objects.requireNonNull(name, "name cannot be null");
  }

  /** The owning task attempt id. */
  public String task() {
    return task;
  }

  /** Unique among the task's files. */
  public long sequence() {
    return sequence;
  }

  /** The name the user gave the file. */
  public String name() {
    return name;
  }

  /** A file-name-safe form: the sequence number and the sanitized name. */
  public String pathName() {
    return sequence + "-" + name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileKey
        && ((FileKey) o).sequence == sequence
        && ((FileKey) o).task.equals(task);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(sequence) * 31 + task.hashCode();
  }

  @Override
  public String toString() {
    return "SpongeFile '" + name + "' of task " + task;
  }
}
