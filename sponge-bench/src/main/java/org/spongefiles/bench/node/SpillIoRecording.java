package org.spongefiles.bench.node;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Stock Hadoop's time blocked on reduce-side spill I/O, from a JFR recording of the run's JVM: the
 * summed durations of its file read, write and force events on the merger's spill files (fetched
 * map outputs {@code map_<n>.out*} and merge outputs {@code *.merged}, with their checksum files),
 * the files {@code SpillFileProbe} counts but for the rounds of a merge wider than its factor
 * ({@code intermediate.<n>}). Every event is recorded (threshold 0, no stacks; see {@code
 * spill-io.jfc}).
 */
final class SpillIoRecording {
  private static final Pattern REDUCE_SPILL = Pattern.compile("\\.?map_\\d+\\.out.*|.*\\.merged.*");

  private SpillIoRecording() {}

  /** The JVM option that records to {@code file}, with the settings copied beside it. */
  static String option(Path file) throws IOException {
    Path settings = file.resolveSibling("spill-io.jfc");
    if (!Files.exists(settings)) {
      try (InputStream in = SpillIoRecording.class.getResourceAsStream("spill-io.jfc")) {
        Files.copy(in, settings, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return "-XX:StartFlightRecording=filename=" + file + ",settings=" + settings;
  }

  /** Milliseconds of reduce-side spill I/O the recording holds: {write, read}. */
  static long[] blockedMillis(Path recording) throws IOException {
    Duration write = Duration.ZERO;
    Duration read = Duration.ZERO;
    List<RecordedEvent> events = new ArrayList<>(RecordingFile.readAllEvents(recording));
    for (RecordedEvent event : events) {
      String path = event.getString("path");
      if (path == null || !REDUCE_SPILL.matcher(Path.of(path).getFileName().toString()).matches()) {
        continue;
      }
      if (event.getEventType().getName().equals("jdk.FileRead")) {
        read = read.plus(event.getDuration());
      } else {
        write = write.plus(event.getDuration());
      }
    }
    return new long[] {write.toMillis(), read.toMillis()};
  }
}
