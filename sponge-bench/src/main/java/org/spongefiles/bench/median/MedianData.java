package org.spongefiles.bench.median;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.workloads.BenchReport;

/**
 * The median benchmark's input, generated once into a directory and reused by later runs with the
 * same parameters (it takes a while and gigabytes): the number files and their expected median.
 */
final class MedianData {
  final Path input;
  final long count;
  final String median;

  private MedianData(Path input, long count, String median) {
    this.input = input;
    this.count = count;
    this.median = median;
  }

  static MedianData prepare(Path dir, long count, int files, long seed) throws IOException {
    Path input = dir.resolve("input");
    Path marker = dir.resolve("numbers.properties");
    String id = count + "/" + files + "/" + seed + "/skewed";
    if (Files.exists(marker)) {
      Properties existing = new Properties();
      try (Reader in = Files.newBufferedReader(marker, StandardCharsets.UTF_8)) {
        existing.load(in);
      }
      if (id.equals(existing.getProperty("id"))) {
        BenchReport.info("input: reusing %s (%s)", input, id);
        return new MedianData(input, count, existing.getProperty("median"));
      }
    }
    Files.deleteIfExists(marker);
    NumbersGenerator numbers =
        new NumbersGenerator(count, files, NumbersGenerator.Shape.SKEWED, seed);
    long start = System.nanoTime();
    numbers.write(input);
    String median = NumbersGenerator.format(numbers.lowerMedian(value -> true));
    BenchReport.info(
        "input: %,d skewed numbers in %d files (%,d bytes), generated with their median in %.0f s",
        count, files, count * NumbersGenerator.LINE_BYTES, (System.nanoTime() - start) / 1e9);
    Properties written = new Properties();
    written.setProperty("id", id);
    written.setProperty("median", median);
    try (Writer out = Files.newBufferedWriter(marker, StandardCharsets.UTF_8)) {
      written.store(out, "MedianBench input");
    }
    return new MedianData(input, count, median);
  }
}
