package org.spongefiles.it.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The owner entries of a node's pool as its metadata file holds them at one moment: which process
 * (pid, lease) and which server session or task (the entry's task word) holds each chunk, and the
 * chunk's generation. Read from the file (never mapped, never locked), so reading takes no lease
 * and frees nothing; the layout is sponge-core's {@code PoolLayout}, version 2.
 */
final class PoolOwners {
  private static final int HEADER_SIZE = 4096;
  private static final int OFF_VERSION = 8;
  private static final int OFF_CHUNK_COUNT = 20;
  private static final int ENTRY_SIZE = 32;
  private static final int VERSION = 2;

  /** One held chunk: its handle ({@code index}, {@code generation}) and its owner. */
  static final class Held {
    final int index;
    final long generation;
    final long lease;
    final int host;
    final int pid;
    final long task;

    Held(int index, long generation, long lease, int host, int pid, long task) {
      this.index = index;
      this.generation = generation;
      this.lease = lease;
      this.host = host;
      this.pid = pid;
      this.task = task;
    }
  }

  private PoolOwners() {}

  /** The metadata file of the one pool in {@code poolDir}. */
  static Path metadata(Path poolDir) throws IOException {
    try (Stream<Path> files = Files.list(poolDir)) {
      List<Path> found =
          files
              .filter(file -> file.getFileName().toString().endsWith(".meta"))
              .collect(Collectors.toList());
      if (found.size() != 1) {
        throw new IOException("Expected one pool (*.meta) in " + poolDir + ", found " + found);
      }
      return found.get(0);
    }
  }

  /** The chunks held (a lease in their owner entry) in the pool of {@code meta}. */
  static List<Held> read(Path meta) throws IOException {
    ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(meta)).order(ByteOrder.nativeOrder());
    int version = file.getInt(OFF_VERSION);
    if (version != VERSION) {
      throw new IOException(meta + ": pool layout version " + version + ", expected " + VERSION);
    }
    int chunks = file.getInt(OFF_CHUNK_COUNT);
    int entries = (HEADER_SIZE + 4 * chunks + 7) & ~7;
    List<Held> held = new ArrayList<>();
    for (int chunk = 0; chunk < chunks; chunk++) {
      int entry = entries + ENTRY_SIZE * chunk;
      long lease = file.getLong(entry);
      if (lease != 0) {
        held.add(
            new Held(
                chunk,
                file.getLong(entry + 24),
                lease,
                file.getInt(entry + 8),
                file.getInt(entry + 12),
                file.getLong(entry + 16)));
      }
    }
    return held;
  }

  /**
   * The value of {@code name} in the environment of process {@code pid}, or null (no such variable,
   * or the process is gone).
   */
  static String environment(long pid, String name) {
    byte[] environ;
    try {
      environ = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
    } catch (IOException gone) {
      return null;
    }
    for (String variable : new String(environ, StandardCharsets.UTF_8).split("\0")) {
      if (variable.startsWith(name + "=")) {
        return variable.substring(name.length() + 1);
      }
    }
    return null;
  }

  /** The task attempt id on process {@code pid}'s command line, or null. */
  static String attempt(long pid) {
    byte[] cmdline;
    try {
      cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
    } catch (IOException gone) {
      return null;
    }
    for (String word : new String(cmdline, StandardCharsets.UTF_8).split("\0")) {
      if (word.startsWith("attempt_")) {
        return word;
      }
    }
    return null;
  }
}
