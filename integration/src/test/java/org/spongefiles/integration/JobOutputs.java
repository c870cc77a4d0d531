package org.spongefiles.integration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A MapReduce job's output as one text: its part files in name order. */
public final class JobOutputs {
  private JobOutputs() {}

  public static String read(Path dir) throws IOException {
    List<Path> parts;
    try (Stream<Path> list = Files.list(dir)) {
      parts =
          list.filter(p -> p.getFileName().toString().startsWith("part-"))
              .sorted()
              .collect(Collectors.toList());
    }
    StringBuilder text = new StringBuilder();
    for (Path part : parts) {
      text.append(Files.readString(part, StandardCharsets.UTF_8));
    }
    return text.toString();
  }
}
