package org.spongefiles.it.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.spongefiles.it.MiniYarn;
import org.spongefiles.workloads.median.MedianJob;

/**
 * A user submitting the median job from the cluster's master with Hadoop's own client: its
 * configuration is the master's (the directory first on this JVM's classpath), the input is copied
 * into HDFS once, the output read back into a local file. {@code stock} runs Hadoop's shuffle,
 * {@code ours} the cluster's mapred-site.xml (SpongeShuffle). Prints {@code ELAPSED <ms>}, one
 * {@code COUNTER <group> <name> <value>} line per counter of the {@code SpongeFiles} group and of
 * the task counters, one {@code ATTEMPT <attempt> <host>} line per task attempt that succeeded, one
 * {@code UNSUCCESSFUL <attempt> <host> <status> <diagnostics on one line>} line per attempt that
 * failed or was killed, and exits 0 when the job succeeded. Arguments {@code key=value} after the
 * counts set keys of the job's configuration (a fault test's speculation or tiers).
 *
 * <pre>
 * java -cp &lt;master conf&gt;:... MedianClient stock|ours &lt;local input&gt; &lt;hdfs dir&gt; &lt;local output file&gt; &lt;count,count,...&gt; [key=value ...]
 * </pre>
 */
public final class MedianClient {
  static final String STOCK = "stock";
  static final String OURS = "ours";
  static final String HADOOP_SHUFFLE = "org.apache.hadoop.mapreduce.task.reduce.Shuffle";

  private MedianClient() {}

  public static void main(String[] args) throws Exception {
    Submission submission = Submission.of("MedianClient", "<count,count,...>", args);
    long[] counts =
        Arrays.stream(submission.argument.split(",")).mapToLong(Long::parseLong).toArray();
    submission.runAndExit(
        MedianJob.create(submission.conf, submission.input, submission.output, counts));
  }

  /**
   * What the clients of this package share: their arguments checked ({@code stock|ours <local
   * input> <hdfs dir> <local output file> <argument> [key=value ...]}), the master's configuration
   * with the settings and the mode's shuffle, the input copied into HDFS once, the output directory
   * cleared.
   */
  static final class Submission {
    final String mode;
    final String argument;
    final Configuration conf;
    final FileSystem fs;
    final org.apache.hadoop.fs.Path input;
    final org.apache.hadoop.fs.Path output;
    private final Path local;

    private Submission(String[] args, Configuration conf, FileSystem fs) {
      this.mode = args[0];
      this.argument = args[4];
      this.conf = conf;
      this.fs = fs;
      org.apache.hadoop.fs.Path work = new org.apache.hadoop.fs.Path(args[2]);
      this.input = new org.apache.hadoop.fs.Path(work, "input");
      this.output = new org.apache.hadoop.fs.Path(work, "output-" + mode);
      this.local = Path.of(args[3]);
    }

    /**
     * Checks {@code args} ({@code client} names the main class in errors, {@code argument} the
     * fifth argument in its usage line; exits 2 when they are wrong) and prepares the job's files.
     */
    static Submission of(String client, String argument, String[] args) throws IOException {
      if (args.length < 5 || !(args[0].equals(STOCK) || args[0].equals(OURS))) {
        System.err.println(
            "usage: "
                + client
                + " stock|ours <local input> <hdfs dir> <local output file> "
                + argument
                + " [key=value ...]");
        System.exit(2);
      }
      Configuration conf = new Configuration();
      Submission submission = new Submission(args, conf, FileSystem.get(conf));
      if (!submission.fs.exists(submission.input)) {
        submission.fs.copyFromLocalFile(
            new org.apache.hadoop.fs.Path(Path.of(args[1]).toUri()), submission.input);
      }
      submission.fs.delete(submission.output, true);
      MiniYarn.smallJob(conf);
      for (String setting : Arrays.asList(args).subList(5, args.length)) {
        int equals = setting.indexOf('=');
        if (equals < 1) {
          System.err.println(client + ": expected key=value, got '" + setting + "'");
          System.exit(2);
        }
        conf.set(setting.substring(0, equals), setting.substring(equals + 1));
      }
      if (submission.mode.equals(STOCK)) {
        conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, HADOOP_SHUFFLE);
      }
      return submission;
    }

    /** Runs {@code job} as {@link #runAndReport} says and exits 0 when it succeeded, else 1. */
    void runAndExit(Job job) throws IOException, InterruptedException, ClassNotFoundException {
      job.setJobName(job.getJobName() + " (" + mode + ")");
      System.exit(runAndReport(job, fs, output, local) ? 0 : 1);
    }
  }

  /**
   * Runs {@code job} to its end and prints its time, counters and attempts as {@link #main} says;
   * writes its output's parts, in order, to {@code local}; returns whether it succeeded.
   */
  static boolean runAndReport(Job job, FileSystem fs, org.apache.hadoop.fs.Path output, Path local)
      throws IOException, InterruptedException, ClassNotFoundException {
    long start = System.nanoTime();
    boolean done = job.waitForCompletion(false);
    System.out.println("ELAPSED " + (System.nanoTime() - start) / 1_000_000);
    for (Counter counter : job.getCounters().getGroup("SpongeFiles")) {
      System.out.println("COUNTER SpongeFiles " + counter.getName() + " " + counter.getValue());
    }
    for (Counter counter : job.getCounters().getGroup(TaskCounter.class.getName())) {
      System.out.println("COUNTER tasks " + counter.getName() + " " + counter.getValue());
    }
    for (TaskCompletionEvent event : events(job)) {
      String host = java.net.URI.create(event.getTaskTrackerHttp()).getHost();
      if (event.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        System.out.println("ATTEMPT " + event.getTaskAttemptId() + " " + host);
      } else {
        String diagnostics =
            String.join(" | ", job.getTaskDiagnostics(event.getTaskAttemptId()))
                .replaceAll("\\s+", " ");
        System.out.println(
            "UNSUCCESSFUL "
                + event.getTaskAttemptId()
                + " "
                + host
                + " "
                + event.getStatus()
                + " "
                + diagnostics);
      }
    }
    StringBuilder text = new StringBuilder();
    List<FileStatus> parts = new ArrayList<>(Arrays.asList(fs.listStatus(output)));
    parts.sort((a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
    for (FileStatus part : parts) {
      if (part.getPath().getName().startsWith("part-")) {
        try (InputStream in = fs.open(part.getPath())) {
          text.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    }
    Files.writeString(local, text.toString());
    System.out.flush();
    return done;
  }

  private static List<TaskCompletionEvent> events(Job job)
      throws IOException, InterruptedException {
    List<TaskCompletionEvent> all = new ArrayList<>();
    while (true) {
      TaskCompletionEvent[] some = job.getTaskCompletionEvents(all.size(), 100);
      if (some.length == 0) {
        return all;
      }
      all.addAll(Arrays.asList(some));
    }
  }
}
