package org.spongefiles.bench;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The background load of the SpongeFiles paper's contention experiments, in child processes so it
 * does not share the measured JVM's heap or collector: a disk writer that writes and fsyncs a
 * scratch file nonstop (the paper ran grep tasks over a large file), and optionally a process that
 * pins memory so little is left for the page cache (the paper pinned 12 of 16 GB).
 *
 * <pre>{@code
 * try (Contention load = Contention.start(Contention.Level.DISK_AND_MEMORY, scratchDir)) {
 *   ... measured run ...
 * }
 * }</pre>
 *
 * <p>Pinned bytes default to what leaves {@value #DEFAULT_LEAVE_GIB} GiB of the machine's available
 * memory free; {@code -Dbench.pin.bytes} sets them.
 */
public final class Contention implements Closeable {
  /** How much background load runs beside the measured run. */
  public enum Level {
    QUIET,
    DISK,
    DISK_AND_MEMORY
  }

  static final int DEFAULT_LEAVE_GIB = 4;
  private static final int WRITE_BYTES = 4 << 20;
  private static final long SYNC_EVERY = 64L << 20;
  private static final long FILE_BYTES = 2L << 30;

  private final Level level;
  private final List<Process> children;
  private final Path progress;
  private final Path dataFile;
  private final long pinnedBytes;
  private final long startNanos = System.nanoTime();

  private Contention(
      Level level, List<Process> children, Path progress, Path dataFile, long pinnedBytes) {
    this.level = level;
    this.children = children;
    this.progress = progress;
    this.dataFile = dataFile;
    this.pinnedBytes = pinnedBytes;
  }

  /** Starts the load of {@code level}; the disk writer's file goes in {@code scratchDir}. */
  public static Contention start(Level level, Path scratchDir) throws IOException {
    List<Process> children = new ArrayList<>();
    Path progress = scratchDir.resolve("contention-progress");
    Path dataFile = scratchDir.resolve("contention.dat");
    long pinned = 0;
    try {
      if (level != Level.QUIET) {
        Files.createDirectories(scratchDir);
        children.add(child(List.of("-Xmx64m"), "disk", dataFile.toString(), progress.toString()));
      }
      if (level == Level.DISK_AND_MEMORY) {
        pinned = pinBytes();
        if (pinned > 0) {
          long megabytes = pinned >> 20;
          Process pinner =
              child(
                  List.of(
                      "-Xms" + megabytes + "m",
                      "-Xmx" + megabytes + "m",
                      "-XX:+AlwaysPreTouch",
                      "-XX:+UseSerialGC"),
                  "pin");
          children.add(pinner);
          awaitReady(pinner);
        }
      }
    } catch (IOException | RuntimeException e) {
      children.forEach(Process::destroyForcibly);
      throw e;
    }
    return new Contention(level, children, progress, dataFile, pinned);
  }

  /** One line for a report: what runs and, for the disk writer, its rate so far. */
  public String describe() {
    if (level == Level.QUIET) {
      return "no background load";
    }
    StringBuilder text = new StringBuilder("disk writer");
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    long written = diskBytesWritten();
    if (seconds >= 1 && written > 0) { // a rate over less is noise
      text.append(String.format(Locale.ROOT, " %.0f MB/s", written / 1e6 / seconds));
    }
    text.append(" (4 MiB writes, fsync every 64 MiB)");
    if (level == Level.DISK_AND_MEMORY) {
      text.append(
          String.format(Locale.ROOT, " + %.1f GiB pinned", pinnedBytes / (double) (1L << 30)));
    }
    return text.toString();
  }

  /** Bytes the disk writer has written and synced so far. */
  public long diskBytesWritten() {
    try {
      String text = Files.readString(progress, StandardCharsets.US_ASCII).trim();
      return text.isEmpty() ? 0 : Long.parseLong(text);
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  public long pinnedBytes() {
    return pinnedBytes;
  }

  @Override
  public void close() {
    for (Process child : children) {
      child.destroyForcibly();
    }
    for (Process child : children) {
      try {
        child.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    children.clear();
    try {
      Files.deleteIfExists(dataFile);
      Files.deleteIfExists(progress);
    } catch (IOException e) {
      System.err.println("Could not delete the contention scratch files: " + e);
    }
  }

  private static long pinBytes() throws IOException {
    String configured = System.getProperty("bench.pin.bytes");
    if (configured != null) {
      return Long.parseLong(configured.trim());
    }
    long available = memAvailable();
    return Math.max(0, available - ((long) DEFAULT_LEAVE_GIB << 30));
  }

  private static long memAvailable() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
      if (line.startsWith("MemAvailable:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
      }
    }
    throw new IOException("/proc/meminfo has no MemAvailable line");
  }

  private static Process child(List<String> jvmOptions, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Contention.class.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .redirectInput(ProcessBuilder.Redirect.PIPE)
        .start();
  }

  private static void awaitReady(Process pinner) throws IOException {
    InputStream out = pinner.getInputStream();
    int b = out.read();
    if (b != 'R') {
      throw new IOException(
          "The memory pinner did not start (exit "
              + (pinner.isAlive() ? "none" : pinner.exitValue())
              + ")");
    }
  }

  /** Child entry points: {@code disk <file> <progress>} or {@code pin}. */
  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("disk")) {
      writeForever(Path.of(args[1]), Path.of(args[2]));
    } else if (args.length == 1 && args[0].equals("pin")) {
      pinForever();
    } else {
      System.err.println("usage: Contention disk <file> <progress> | pin");
      System.exit(2);
    }
  }

  private static void writeForever(Path file, Path progress) throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(WRITE_BYTES);
    for (int i = 0; i < WRITE_BYTES; i++) {
      block.put(i, (byte) (i * 31 + 7));
    }
    try (FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
      long written = 0;
      long position = 0;
      while (true) {
        block.clear();
        while (block.hasRemaining()) {
          position += channel.write(block, position);
        }
        written += WRITE_BYTES;
        if (written % SYNC_EVERY == 0) {
          channel.force(false);
          Files.writeString(progress, Long.toString(written), StandardCharsets.US_ASCII);
        }
        if (position >= FILE_BYTES) {
          position = 0;
        }
      }
    }
  }

  private static void pinForever() throws IOException {
    // The heap was committed and touched at start (-Xms = -Xmx, AlwaysPreTouch): it stays resident.
    System.out.write('R');
    System.out.flush();
    while (System.in.read() >= 0) {
      // Parent closed our stdin or killed us: either way we are done.
    }
  }
}
