package org.spongefiles.workloads.median;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.spongefiles.merger.MergerCounter;
import org.spongefiles.testkit.mapreduce.JobOutput;
import org.spongefiles.testkit.mapreduce.SpillFileProbe;

/**
 * One run of the {@link MedianJob} in Hadoop's LocalJobRunner (one map per input file), with
 * Hadoop's merger or ours, measured: the job's and the reduce phase's wall time, the bytes the
 * process wrote to block devices during the reduce phase, the reduce-side spill files seen in the
 * local directories, and the job's counters. {@link MedianBench} runs it in child JVMs:
 *
 * <pre>
 * MedianRun stock|sponge INPUT WORK COUNTS [key=value ...]
 * </pre>
 *
 * printing {@code RESULT key=value} lines.
 */
public final class MedianRun {
  /** Which merger the reduce uses. */
  public enum Merger {
    STOCK,
    SPONGE
  }

  /** What one run measured. */
  public static final class Result {
    public final boolean succeeded;
    public final String output;
    public final long jobNanos;
    public final long reduceNanos;
    public final long reduceDiskBytes;
    public final long reduceSpilledRecords;
    public final Set<String> spillFiles;
    public final Counters counters;

    Result(
        boolean succeeded,
        String output,
        long jobNanos,
        Set<String> spillFiles,
        Counters counters) {
      this.succeeded = succeeded;
      this.output = output;
      this.jobNanos = jobNanos;
      this.reduceNanos = MedianProbe.reduceNanos();
      this.reduceDiskBytes = MedianProbe.reduceDiskBytes();
      this.reduceSpilledRecords = MedianProbe.reduceSpilledRecords();
      this.spillFiles = spillFiles;
      this.counters = counters;
    }

    public long task(TaskCounter counter) {
      return counters.findCounter(counter).getValue();
    }

    /** A counter of the SpongeFiles group (0 for Hadoop's merger). */
    public long sponge(String name) {
      return counters.findCounter(MergerCounter.GROUP, name).getValue();
    }

    /** Bytes written to SpongeFiles, all tiers. */
    public long spongeBytesWritten() {
      long total = 0;
      for (String tier : List.of("POOL", "REMOTE", "DISK", "DFS")) {
        total += sponge(tier + "_BYTES_WRITTEN");
      }
      return total;
    }

    /** The measures as {@code key=value} lines for a parent process. */
    List<String> lines() {
      List<String> lines =
          new java.util.ArrayList<>(
              List.of(
                  "succeeded=" + succeeded,
                  "output=" + output.trim().replace('\n', ';').replace('\t', ' '),
                  "jobNanos=" + jobNanos,
                  "reduceNanos=" + reduceNanos,
                  "reduceDiskBytes=" + reduceDiskBytes,
                  "reduceSpilledRecords=" + reduceSpilledRecords,
                  "spillFiles=" + spillFiles.size()));
      for (TaskCounter counter :
          List.of(
              TaskCounter.REDUCE_SHUFFLE_BYTES,
              TaskCounter.REDUCE_INPUT_RECORDS,
              TaskCounter.MAP_OUTPUT_RECORDS,
              TaskCounter.SPILLED_RECORDS,
              TaskCounter.MERGED_MAP_OUTPUTS)) {
        lines.add(counter.name() + "=" + task(counter));
      }
      for (Counter counter : counters.getGroup(MergerCounter.GROUP)) {
        lines.add(MergerCounter.GROUP + "." + counter.getName() + "=" + counter.getValue());
      }
      return lines;
    }
  }

  private MedianRun() {}

  /**
   * Runs the job once over {@code input} with {@code conf}'s sponge.* and Hadoop keys; its local
   * directories and output go under {@code work}.
   */
  public static Result run(Configuration conf, Merger merger, Path input, Path work, long[] counts)
      throws Exception {
    Configuration job = new Configuration(conf);
    Path local = work.resolve("local");
    Path output = work.resolve("output");
    job.set("mapreduce.framework.name", "local");
    job.set("fs.defaultFS", "file:///");
    job.set("mapreduce.cluster.local.dir", local.toString());
    job.set("hadoop.tmp.dir", work.resolve("tmp").toString());
    // A conf without mapred-default makes the local runner stage jobs in a fixed directory of its
    // own and leave them there.
    job.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
    job.setInt("mapreduce.client.completion.pollinterval", 50);
    // One map per input file, so the file count sets the number of map outputs.
    job.setLong("mapreduce.input.fileinputformat.split.minsize", Long.MAX_VALUE);
    job.setClass(
        MRConfig.SHUFFLE_CONSUMER_PLUGIN,
        merger == Merger.STOCK ? MedianShuffles.Stock.class : MedianShuffles.Sponge.class,
        ShuffleConsumerPlugin.class);
    Job median =
        MedianJob.create(
            job,
            new org.apache.hadoop.fs.Path(input.toUri()),
            new org.apache.hadoop.fs.Path(output.toUri()),
            counts);
    MedianProbe.reset();
    String reduceLocal = job.get(MedianShuffles.REDUCE_LOCAL_DIR, "");
    if (!reduceLocal.isEmpty()) {
      Files.createDirectories(Path.of(reduceLocal));
    }
    Set<String> spillFiles = new TreeSet<>();
    SpillFileProbe probe = SpillFileProbe.watch(local);
    SpillFileProbe reduceProbe =
        reduceLocal.isEmpty() ? null : SpillFileProbe.watch(Path.of(reduceLocal));
    boolean succeeded;
    long start = System.nanoTime();
    try {
      succeeded = median.waitForCompletion(false);
    } finally {
      probe.close();
      if (reduceProbe != null) {
        reduceProbe.close();
        spillFiles.addAll(reduceProbe.seen());
      }
    }
    long elapsed = System.nanoTime() - start;
    spillFiles.addAll(probe.seen());
    return new Result(succeeded, JobOutput.text(output), elapsed, spillFiles, median.getCounters());
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println("usage: MedianRun stock|sponge INPUT WORK COUNTS [key=value ...]");
      System.exit(2);
    }
    Merger merger = Merger.valueOf(args[0].toUpperCase(Locale.ROOT));
    long[] counts = Arrays.stream(args[3].split(",")).mapToLong(Long::parseLong).toArray();
    Configuration conf = new Configuration();
    for (String pair : Arrays.asList(args).subList(4, args.length)) {
      int eq = pair.indexOf('=');
      conf.set(pair.substring(0, eq), pair.substring(eq + 1));
    }
    Result result = run(conf, merger, Path.of(args[1]), Path.of(args[2]), counts);
    for (String line : result.lines()) {
      System.out.println("RESULT " + line);
    }
    System.out.flush();
    System.exit(result.succeeded ? 0 : 1);
  }
}
