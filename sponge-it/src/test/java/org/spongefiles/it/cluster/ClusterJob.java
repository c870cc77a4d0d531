package org.spongefiles.it.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.spongefiles.emulator.cluster.ClusterSettings;
import org.spongefiles.emulator.cluster.HadoopCluster;
import org.spongefiles.emulator.cluster.HadoopJars;
import org.spongefiles.it.Distribution;
import org.spongefiles.it.ReadmeMapredSite;

/** One run of {@link MedianClient} on a cluster's master, and what it printed. */
final class ClusterJob {
  /** The HDFS directory of the median job submitted by the master's OS user. */
  static final String MEDIAN_DIR = "/median";

  final String output;
  final long elapsedMillis;

  /** {@code <group> <name>} to value: the SpongeFiles group and the task counters. */
  final Map<String, Long> counters = new TreeMap<>();

  /** Each succeeded task attempt's host. */
  final Map<String, String> attempts = new HashMap<>();

  /** The attempts that failed or were killed: attempt to its host, status and diagnostics. */
  final Map<String, String> unsuccessful = new TreeMap<>();

  private ClusterJob(String output, long elapsedMillis) {
    this.output = output;
    this.elapsedMillis = elapsedMillis;
  }

  /**
   * The smoke-sized cluster of the tarball under test, on this JVM's Hadoop jars, its tasks set up
   * with the README's mapred-site keys.
   */
  static ClusterSettings smokeCluster() throws IOException, InterruptedException {
    return ClusterSettings.smoke(
        Distribution.home(),
        HadoopJars.ofThisJvm(),
        Path.of(System.getProperty("java.io.tmpdir")),
        ReadmeMapredSite.properties());
  }

  long counter(String group, String name) {
    return counters.getOrDefault(group + " " + name, 0L);
  }

  /**
   * Runs the median job ({@code stock} or {@code ours}) of {@code input} (with {@code counts} per
   * partition) from the master, its output into {@code work}; fails with the client's output if the
   * job does.
   */
  static ClusterJob submit(HadoopCluster cluster, String mode, Path input, long[] counts, Path work)
      throws IOException, InterruptedException {
    return submit(cluster, null, MEDIAN_DIR, mode, input, counts, work, List.of());
  }

  /**
   * As above, submitted by Hadoop user {@code user} (simple authentication: {@code
   * HADOOP_USER_NAME}; null for the master's OS user) with its input and output under {@code
   * hdfsDir} ({@link #MEDIAN_DIR} for the master's), with {@code settings} ({@code key=value}) set
   * in the job's configuration.
   */
  static ClusterJob submit(
      HadoopCluster cluster,
      String user,
      String hdfsDir,
      String mode,
      Path input,
      long[] counts,
      Path work,
      List<String> settings)
      throws IOException, InterruptedException {
    return submit(
        cluster,
        user,
        MedianClient.class,
        hdfsDir,
        mode,
        input,
        Arrays.stream(counts).mapToObj(Long::toString).collect(Collectors.joining(",")),
        work,
        settings);
  }

  /**
   * Runs {@code client} (a main class taking {@link MedianClient}'s arguments, {@code argument} in
   * place of the counts, and printing its lines) from the master as Hadoop user {@code user} (null
   * for the master's OS user), its HDFS files under {@code hdfsDir}.
   */
  static ClusterJob submit(
      HadoopCluster cluster,
      String user,
      Class<?> client,
      String hdfsDir,
      String mode,
      Path input,
      String argument,
      Path work,
      List<String> settings)
      throws IOException, InterruptedException {
    Path output = work.resolve("output-" + client.getSimpleName() + "-" + mode);
    List<String> args = new ArrayList<>();
    args.addAll(List.of(mode, input.toString(), hdfsDir, output.toString(), argument));
    args.addAll(settings);
    List<String> lines =
        runOnMaster(
            cluster, user, client, args, "The " + mode + " job of " + client.getSimpleName());
    long elapsed = -1;
    for (String line : lines) {
      if (line.startsWith("ELAPSED ")) {
        elapsed = Long.parseLong(line.substring("ELAPSED ".length()));
      }
    }
    ClusterJob run = new ClusterJob(Files.readString(output), elapsed);
    for (String line : lines) {
      String[] fields = line.split(" ");
      if (fields[0].equals("COUNTER") && fields.length == 4) {
        run.counters.put(fields[1] + " " + fields[2], Long.parseLong(fields[3]));
      } else if (fields[0].equals("ATTEMPT") && fields.length == 3) {
        run.attempts.put(fields[1], fields[2]);
      } else if (fields[0].equals("UNSUCCESSFUL") && fields.length >= 4) {
        run.unsuccessful.put(fields[1], line.substring(line.indexOf(fields[2])));
      }
    }
    System.out.printf(
        "%s%s job: %d ms, %s, unsuccessful attempts %s%n",
        user == null ? "" : user + "'s ", mode, elapsed, run.counters, run.unsuccessful);
    return run;
  }

  /**
   * Runs {@code main} with {@code args} on the master, as a user there would (the master's
   * configuration first on its classpath, then this JVM's), as Hadoop user {@code user} (null: the
   * OS user); returns what it printed, or fails with that output, naming {@code what}, if it exits
   * with another status than 0.
   */
  static List<String> runOnMaster(
      HadoopCluster cluster, String user, Class<?> main, List<String> args, String what)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.add("-cp");
    command.add(cluster.classpath(cluster.master()) + ":" + System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(cluster.master().run(command)).redirectErrorStream(true);
    builder.environment().putAll(cluster.environment(cluster.master()));
    if (user != null) {
      builder.environment().put("HADOOP_USER_NAME", user);
    }
    Process client = builder.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
      }
    }
    if (client.waitFor() != 0) {
      throw new IOException(what + " failed; client output:\n" + String.join("\n", lines));
    }
    return lines;
  }
}
