package org.spongefiles.workloads.pig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Bytes this JVM writes to files under a directory while it runs, from Java Flight Recorder's
 * file-write events (every write, no threshold). Pig's bags spill with {@code FileOutputStream}s
 * under {@code java.io.tmpdir}, so this counts exactly what spilling still bypasses SpongeFiles:
 * the flight recorder's own repository must be elsewhere ({@code
 * -XX:FlightRecorderOptions:repository=}). Tez in local mode keeps other files there too, so the
 * bags' spill files are also counted apart.
 */
final class TmpWrites implements AutoCloseable {
  /** Pig's bags name their spill files so ({@code File.createTempFile("pigbag", null)}). */
  static final String BAG_PREFIX = "pigbag";

  private final Path dir;
  private final Path dump;
  private final Recording recording = new Recording();
  private long bytes;
  private int files;
  private long bagBytes;
  private int bagFiles;

  /** Starts recording writes under {@code dir}; the recording is dumped to {@code dump}. */
  TmpWrites(Path dir, Path dump) {
    this.dir = dir.toAbsolutePath().normalize();
    this.dump = dump;
    recording.enable("jdk.FileWrite").withThreshold(Duration.ZERO);
    recording.setToDisk(true);
    recording.start();
  }

  /** Stops recording and sums the writes under the directory. */
  void stop() throws IOException {
    recording.stop();
    recording.dump(dump);
    Set<String> paths = new HashSet<>();
    Set<String> bagPaths = new HashSet<>();
    for (RecordedEvent event : RecordingFile.readAllEvents(dump)) {
      String path = event.getString("path");
      if (path != null && Path.of(path).toAbsolutePath().normalize().startsWith(dir)) {
        bytes += event.getLong("bytesWritten");
        paths.add(path);
        if (Path.of(path).getFileName().toString().startsWith(BAG_PREFIX)) {
          bagBytes += event.getLong("bytesWritten");
          bagPaths.add(path);
        }
      }
    }
    files = paths.size();
    bagFiles = bagPaths.size();
    Files.deleteIfExists(dump);
  }

  /** Of {@link #bytes()}, those written to Pig's bag spill files ({@code pigbag*}). */
  long bagBytes() {
    return bagBytes;
  }

  int bagFiles() {
    return bagFiles;
  }

  long bytes() {
    return bytes;
  }

  int files() {
    return files;
  }

  @Override
  public void close() {
    recording.close();
  }
}
