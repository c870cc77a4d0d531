package org.spongefiles.workloads.median;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;

/**
 * Marks the reduce phase of a median run in LocalJobRunner, where maps have all finished before the
 * reduce's shuffle starts: its wall time, the bytes this process sent to block devices meanwhile
 * ({@code write_bytes} of /proc/self/io: tmpfs pages, such as the pool's, are not counted), and the
 * reduce task's own SPILLED_RECORDS.
 */
public final class MedianProbe {
  private static volatile long startNanos;
  private static volatile long endNanos;
  private static volatile long startWriteBytes;
  private static volatile long endWriteBytes;
  private static volatile long reduceSpilledRecords;

  private MedianProbe() {}

  static void shuffleStarted() {
    startWriteBytes = writeBytes();
    startNanos = System.nanoTime();
  }

  static void reduceFinished(TaskInputOutputContext<?, ?, ?, ?> context) {
    endNanos = System.nanoTime();
    endWriteBytes = writeBytes();
    reduceSpilledRecords = context.getCounter(TaskCounter.SPILLED_RECORDS).getValue();
  }

  static void reset() {
    startNanos = 0;
    endNanos = 0;
    startWriteBytes = 0;
    endWriteBytes = 0;
    reduceSpilledRecords = 0;
  }

  /** Nanoseconds from the start of the shuffle to the end of the reducer; 0 when not seen. */
  static long reduceNanos() {
    return startNanos == 0 || endNanos == 0 ? 0 : endNanos - startNanos;
  }

  /** Bytes this process wrote to block devices during the reduce phase; -1 when unknown. */
  static long reduceDiskBytes() {
    return startWriteBytes < 0 || endWriteBytes < 0 ? -1 : endWriteBytes - startWriteBytes;
  }

  static long reduceSpilledRecords() {
    return reduceSpilledRecords;
  }

  /** {@code write_bytes} of this process, -1 where /proc/self/io does not exist. */
  static long writeBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("write_bytes:")) {
          return Long.parseLong(line.substring("write_bytes:".length()).trim());
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
