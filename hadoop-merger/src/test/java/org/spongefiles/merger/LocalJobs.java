package org.spongefiles.merger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.mapreduce.JobOutput;
import org.spongefiles.testkit.mapreduce.SpillFileProbe;

/**
 * Runs jobs in Hadoop's LocalJobRunner with Hadoop's merger or ours, on tiny shuffle memory so the
 * reduce side spills, each run with fresh output and local directories, a private pool of {@value
 * #POOL_BYTES} bytes and private disk-tier directories.
 */
final class LocalJobs implements AutoCloseable {
  static final long POOL_BYTES = 32L << 20;
  static final long CHUNK_BYTES = 64L << 10;

  /** The heap the merger is told it has: 717 KiB of shuffle memory, 179 KiB per map output. */
  static final long REDUCE_MEMORY = 1L << 20;

  /** Builds the job to run from a configuration prepared for one run. */
  interface JobFactory {
    Job create(Configuration conf, Path input, Path output) throws IOException;
  }

  /** What one run produced. */
  static final class Run {
    final JobID jobId;

    /** The configuration the job was built from: its pool and disk-tier directories. */
    final Configuration conf;

    final boolean succeeded;
    final Counters counters;
    final byte[] output;
    final Set<String> reduceSpillFiles;

    Run(Job job, Configuration conf, boolean succeeded, byte[] output, Set<String> reduceSpillFiles)
        throws IOException {
      this.jobId = job.getJobID();
      this.conf = conf;
      this.succeeded = succeeded;
      this.counters = job.getCounters();
      this.output = output;
      this.reduceSpillFiles = reduceSpillFiles;
    }

    /** The id of the first attempt of reduce task {@code partition}. */
    String reduceAttempt(int partition) {
      return new TaskAttemptID(new TaskID(jobId, TaskType.REDUCE, partition), 0).toString();
    }

    long task(TaskCounter counter) {
      return counters.findCounter(counter).getValue();
    }

    long sponge(String name) {
      return counters.findCounter(MergerCounter.GROUP, name).getValue();
    }

    long sponge(MergerCounter counter) {
      return sponge(counter.name());
    }

    List<String> lines() {
      String text = new String(output, StandardCharsets.UTF_8);
      return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
  }

  private final Path root;
  private final Path pool;
  private final List<Path> dirs = new ArrayList<>();
  private int runs;

  LocalJobs() throws IOException {
    root = Files.createTempDirectory("merger-jobs");
    pool = TestDirs.newShmDir("merger-pool");
    dirs.add(pool);
  }

  /** A fresh input directory. */
  Path newInput() throws IOException {
    return Files.createDirectories(root.resolve("input-" + (++runs)));
  }

  Run stock(JobFactory factory, Path input, Consumer<Configuration> settings) throws Exception {
    return run(factory, input, false, settings);
  }

  Run sponge(JobFactory factory, Path input, Consumer<Configuration> settings) throws Exception {
    return run(factory, input, true, settings);
  }

  Run run(JobFactory factory, Path input, boolean sponge, Consumer<Configuration> settings)
      throws Exception {
    int id = ++runs;
    Path local = root.resolve("local-" + id);
    Path disk = TestDirs.newShmDir("merger-disk");
    dirs.add(disk);
    Configuration conf = SpongeTestConf.of(pool, disk, POOL_BYTES, CHUNK_BYTES);
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.cluster.local.dir", local.toString());
    conf.set("hadoop.tmp.dir", root.resolve("tmp-" + id).toString());
    // Without mapred-default (a Configuration(false)) the local runner stages jobs in a fixed
    // directory of its own and leaves them there.
    conf.set("mapreduce.jobtracker.staging.root.dir", root.resolve("staging-" + id).toString());
    conf.setInt("mapreduce.task.io.sort.mb", 4);
    conf.setInt("mapreduce.client.completion.pollinterval", 20);
    conf.setLong("mapreduce.reduce.memory.totalbytes", REDUCE_MEMORY);
    if (sponge) {
      SpongeMergerSetup.enable(conf);
    }
    settings.accept(conf);
    Path output = root.resolve("output-" + id);
    Job job = factory.create(conf, input, output);
    SpillFileProbe probe = SpillFileProbe.watch(local);
    boolean succeeded;
    try {
      succeeded = job.waitForCompletion(false);
    } finally {
      probe.close();
    }
    return new Run(job, conf, succeeded, JobOutput.bytes(output), probe.seen());
  }

  @Override
  public void close() {
    TestDirs.deleteTree(root);
    dirs.forEach(TestDirs::deleteTree);
  }
}
