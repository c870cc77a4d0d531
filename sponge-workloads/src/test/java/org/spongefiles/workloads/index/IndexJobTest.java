package org.spongefiles.workloads.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inverted index on Hadoop's local job runner (a small input, a few seconds) against the
 * reference computed from the generator: the parts, concatenated, equal it byte for byte, and the
 * hot term's reducer gets most of the postings.
 */
class IndexJobTest {
  @Test
  void theIndexEqualsTheReference(@TempDir Path work) throws Exception {
    IndexInput input = new IndexInput(3_000, 7);
    input.write(work.resolve("in"), 3);
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
    conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());
    conf.setInt("mapreduce.task.io.sort.mb", 4);
    // waitForCompletion's poll: at Hadoop's 5 s, the one-second job ends 5 s late
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 50);
    Job job =
        IndexJob.create(
            conf,
            new org.apache.hadoop.fs.Path(work.resolve("in").toUri()),
            new org.apache.hadoop.fs.Path(work.resolve("out").toUri()),
            3);
    assertThat(job.waitForCompletion(false)).as("the job succeeded").isTrue();

    String output;
    try (Stream<Path> parts = Files.list(work.resolve("out"))) {
      StringBuilder text = new StringBuilder();
      for (Path part :
          parts
              .filter(p -> p.getFileName().toString().startsWith("part-"))
              .sorted()
              .collect(Collectors.toList())) {
        text.append(Files.readString(part, StandardCharsets.UTF_8));
      }
      output = text.toString();
    }
    assertThat(output).isEqualTo(IndexReference.output(input, 3));
    assertThat(output).contains("the\t0\t").contains("the\t2999\t");
    assertThat(IndexReference.hottestShare(input, 3)).isGreaterThan(0.6);
  }
}
