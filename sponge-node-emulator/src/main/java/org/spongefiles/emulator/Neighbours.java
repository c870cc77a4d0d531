package org.spongefiles.emulator;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Neighbour processes sharing a node's {@link EmulatedDisk}, as the paper's contention experiments
 * had them: level 0 none, level 1 a reader scanning a large file (the paper's grep tasks), level 3
 * two readers and a writer that spills. Each neighbour is a JVM ({@link NeighbourMain}) in its own
 * small {@link MemoryContainer}, so its page cache cannot hold the file it scans and its reads
 * really reach the disk.
 */
public final class Neighbours implements Closeable {
  static final long SCAN_BYTES = 384L << 20;
  static final long SPILL_BYTES = 256L << 20;
  private static final long CONTAINER_BYTES = 128L << 20;

  public final int level;
  private final List<Process> processes = new ArrayList<>();
  private final List<MemoryContainer> containers = new ArrayList<>();

  private Neighbours(int level) {
    this.level = level;
  }

  /** Starts {@code level} (0, 1 or 3) neighbours on {@code disk}. */
  public static Neighbours start(EmulatedDisk disk, int level) throws IOException {
    if (level != 0 && level != 1 && level != 3) {
      throw new IllegalArgumentException("neighbour level : " + level + " (expected: 0, 1 or 3)");
    }
    Neighbours neighbours = new Neighbours(level);
    try {
      if (level >= 1) {
        Path scan = disk.mount.resolve("neighbour-scan.dat");
        fill(scan, SCAN_BYTES);
        disk.dropCache();
        neighbours.spawn("reader-1", List.of("reader", scan.toString()));
        if (level == 3) {
          neighbours.spawn("reader-2", List.of("reader", scan.toString()));
          neighbours.spawn(
              "writer",
              List.of(
                  "writer",
                  disk.mount.resolve("neighbour-spill.dat").toString(),
                  Long.toString(SPILL_BYTES)));
        }
      }
    } catch (IOException | RuntimeException e) {
      neighbours.close();
      throw e;
    }
    return neighbours;
  }

  private void spawn(String name, List<String> args) throws IOException {
    MemoryContainer container =
        MemoryContainer.create("neighbour-" + name + "-" + System.nanoTime(), CONTAINER_BYTES);
    containers.add(container);
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx24m",
                "-XX:+UseSerialGC",
                "-XX:MaxDirectMemorySize=16m",
                "-cp",
                System.getProperty("java.class.path"),
                NeighbourMain.class.getName()));
    command.addAll(args);
    processes.add(
        new ProcessBuilder(container.wrap(command))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start());
  }

  /** Writes {@code bytes} to {@code file} once (kept for later levels on the same disk). */
  public static void fill(Path file, long bytes) throws IOException {
    if (Files.exists(file) && Files.size(file) == bytes) {
      return;
    }
    ByteBuffer block = ByteBuffer.allocateDirect(4 << 20);
    try (FileChannel channel =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      for (long written = 0; written < bytes; written += block.capacity()) {
        block.clear();
        while (block.hasRemaining()) {
          channel.write(block);
        }
      }
      channel.force(true);
    }
  }

  /** The neighbours that still run (all of them, unless one failed). */
  public long alive() {
    return processes.stream().filter(Process::isAlive).count();
  }

  public String describe() {
    switch (level) {
      case 0:
        return "no neighbours";
      case 1:
        return "1 neighbour (a reader scanning " + (SCAN_BYTES >> 20) + " MiB)";
      default:
        return "3 neighbours (2 readers scanning "
            + (SCAN_BYTES >> 20)
            + " MiB, a writer spilling over "
            + (SPILL_BYTES >> 20)
            + " MiB with fsync)";
    }
  }

  @Override
  public void close() throws IOException {
    for (Process process : processes) {
      process.destroyForcibly();
    }
    for (Process process : processes) {
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    processes.clear();
    IOException failure = null;
    for (MemoryContainer container : containers) {
      try {
        container.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    containers.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
