package org.spongefiles.emulator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One neighbour process on a node's disk, until it is killed: {@code reader FILE} scans a large
 * file over and over in 1 MiB reads (the paper's grep tasks); {@code writer FILE BYTES} writes 4
 * MiB blocks over a file of BYTES, again and again, with an fsync every 32 MiB (a task spilling).
 */
public final class NeighbourMain {
  private static final int READ = 1 << 20;
  private static final int WRITE = 4 << 20;
  private static final long SYNC_EVERY = 32L << 20;

  private NeighbourMain() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2 || (args[0].equals("writer") && args.length < 3)) {
      System.err.println("usage: NeighbourMain reader FILE | writer FILE BYTES");
      System.exit(2);
    }
    Path file = Path.of(args[1]);
    if (args[0].equals("reader")) {
      read(file);
    } else {
      write(file, Long.parseLong(args[2]));
    }
  }

  private static void read(Path file) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocateDirect(READ);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (true) {
        buffer.clear();
        if (channel.read(buffer) < 0) {
          channel.position(0);
        }
      }
    }
  }

  private static void write(Path file, long bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocateDirect(WRITE);
    while (buffer.hasRemaining()) {
      buffer.put((byte) buffer.position());
    }
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      long sinceSync = 0;
      while (true) {
        if (channel.position() >= bytes) {
          channel.position(0);
        }
        buffer.clear();
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        sinceSync += WRITE;
        if (sinceSync >= SYNC_EVERY) {
          channel.force(false);
          sinceSync = 0;
        }
      }
    }
  }
}
