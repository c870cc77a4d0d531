package org.spongefiles.testkit.mapreduce;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A local MapReduce job's output: its reducers' part files, in partition order, concatenated. */
public final class JobOutput {
  private JobOutput() {}

  /**
   * The bytes of every {@code part-*} file in {@code dir}, in name order; none when it is absent.
   */
  public static byte[] bytes(Path dir) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    if (!Files.isDirectory(dir)) {
      return bytes.toByteArray();
    }
    List<Path> parts;
    try (Stream<Path> list = Files.list(dir)) {
      parts =
          list.filter(p -> p.getFileName().toString().startsWith("part-"))
              .sorted()
              .collect(Collectors.toList());
    }
    for (Path part : parts) {
      bytes.write(Files.readAllBytes(part));
    }
    return bytes.toByteArray();
  }

  /** {@link #bytes} as UTF-8 text. */
  public static String text(Path dir) throws IOException {
    return new String(bytes(dir), StandardCharsets.UTF_8);
  }
}
