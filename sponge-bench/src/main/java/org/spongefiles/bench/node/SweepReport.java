package org.spongefiles.bench.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.spongefiles.emulator.DiskClass;

/** What the node sweep's two reports (the median job's, the Pig queries') both say. */
final class SweepReport {
  private SweepReport() {}

  /** Creates {@code out}; returns a report's first lines: {@code title}, then a blank line. */
  static List<String> begin(Path out, String title) throws IOException {
    Files.createDirectories(out);
    List<String> lines = new ArrayList<>();
    lines.add(title);
    lines.add("");
    return lines;
  }

  /** Appends the disk classes, then the sweep's {@code notes}, each list set off by blank lines. */
  static void disksAndNotes(List<String> lines, List<String> notes) {
    lines.add("");
    for (DiskClass diskClass : DiskClass.values()) {
      lines.add("- " + diskClass.describe());
    }
    lines.add("");
    notes.forEach(note -> lines.add("- " + note));
    lines.add("");
  }
}
