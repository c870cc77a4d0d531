package org.spongefiles.workloads.pig;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.spongefiles.bag.PigRecipe;

/**
 * Runs Pig queries in a child JVM with a heap of its own, so memory is as tight as a task's, and a
 * fresh {@code java.io.tmpdir} under the work directory, so what Pig leaves there can be seen. With
 * the recipe on, the child gets the bag factory's system properties and the shipped recipe's Pig
 * properties (sponge-pig.properties); without it, it runs stock Pig.
 *
 * <p>The child's files, apart from the pool a recipe names, stay under the work directory: Hadoop's
 * and Pig's temporary directories, the local job runner's staging area, java.io.tmpdir, and what
 * Tez's local mode localizes into the current directory (the child runs in the work directory: a
 * child ended by an out-of-memory error leaves Tez's copies of the DAG's jars there).
 *
 * <p>Pig's MapReduce mode needs a core-site.xml on the classpath: one is written into the work
 * directory's conf/ (local file system, local job runner), with a log4j.properties sending Pig's
 * and Hadoop's warnings to child.log, and put first on the child's classpath.
 */
public final class PigJvm {
  /** How long a child may run; it is killed past this. */
  private static final long TIMEOUT_MINUTES = 10;

  private final Path work;
  private final Path input;
  private final List<PigQuery> queries = new ArrayList<>();
  private final Properties pig = new Properties();
  private final Map<String, String> system = new LinkedHashMap<>();
  private final Map<String, String> environment = new LinkedHashMap<>();
  private final List<String> jvmOptions = new ArrayList<>();
  private String heap = "256m";
  private String mode = "local";
  private String extraClasspath = "";
  private String firstClasspath = "";
  private String clientConf = "";
  private String inputUri;
  private long pressureMillis;
  private boolean tmpWrites;
  private boolean heldAfterJobs;
  private int warmUps;
  private int repeats = 1;
  private UnaryOperator<List<String>> launcher = UnaryOperator.identity();

  /** A child reading pages from {@code input}, writing everything under {@code work}. */
  public PigJvm(Path input, Path work) {
    // Absolute: the child runs in its work directory.
    this.input = input.toAbsolutePath();
    this.work = work.toAbsolutePath();
    pig.setProperty("hadoop.tmp.dir", this.work.resolve("hadoop").toString());
    pig.setProperty("pig.temp.dir", this.work.resolve("pig").toString());
    // The local job runner stages jobs in a fixed directory of its own unless told otherwise.
    pig.setProperty(
        "mapreduce.jobtracker.staging.root.dir", this.work.resolve("staging").toString());
    pig.setProperty("mapreduce.task.io.sort.mb", "16");
  }

  /** Turns the recipe on: Pig's bags spill to SpongeFiles. */
  public PigJvm recipe() {
    for (String key : PigRecipe.pigProperties().stringPropertyNames()) {
      pig.setProperty(key, PigRecipe.pigProperties().getProperty(key));
    }
    // The shipped paths are an installation's; here the jars are wherever the build put them.
    List<String> jars = new ArrayList<>();
    for (Class<?> type : new Class<?>[] {org.spongefiles.core.SpongeTask.class, PigRecipe.class}) {
      String location = type.getProtectionDomain().getCodeSource().getLocation().toString();
      if (location.endsWith(".jar")) {
        jars.add(location);
      }
    }
    pig.setProperty("pig.additional.jars.uris", String.join(",", jars));
    system.putAll(PigRecipe.systemProperties(PigRecipe.location()));
    return this;
  }

  /**
   * Sets an environment variable of the child, e.g. {@code HADOOP_CONF_DIR}, which a NodeManager
   * hands its containers and tasks read their node's final keys from.
   */
  public PigJvm environment(String name, String value) {
    environment.put(name, value);
    return this;
  }

  /** Adds options for the child JVM (a collector, GC logging). */
  public PigJvm jvmOptions(String... options) {
    jvmOptions.addAll(List.of(options));
    return this;
  }

  public PigJvm heap(String size) {
    this.heap = size;
    return this;
  }

  /**
   * {@code local} (Pig's local mode), {@code mapreduce} (on Hadoop's local job runner) or {@code
   * tez_local} (Tez in this JVM; Tez must be on the classpath).
   */
  public PigJvm mode(String execMode) {
    this.mode = execMode;
    return this;
  }

  /**
   * Entries appended to the child's classpath (this JVM's): Tez's jars for {@code tez_local} when
   * the caller's own classpath leaves them out.
   */
  public PigJvm classpath(String entries) {
    this.extraClasspath = entries;
    return this;
  }

  /**
   * Entries put ahead of this JVM's classpath on the child's (after the written conf/), so that
   * their classes win over the same classes in this JVM's jars: another build of a Pig jar.
   */
  public PigJvm classpathFirst(String entries) {
    this.firstClasspath = entries;
    return this;
  }

  /**
   * Runs the child as a client of a real cluster: {@code entries} (the cluster's configuration
   * directories, e.g. HADOOP_CONF_DIR and a tez-site.xml's) go on its classpath after the written
   * log4j.properties, in place of the local core-site.xml.
   */
  public PigJvm clientConf(String entries) {
    this.clientConf = entries;
    return this;
  }

  /** Reads the pages from {@code uri} (on the cluster's file system) instead of the local input. */
  public PigJvm inputUri(String uri) {
    this.inputUri = uri;
    return this;
  }

  public PigJvm queries(PigQuery... run) {
    queries.addAll(List.of(run));
    return this;
  }

  /** Sets a Pig (and so job) property, e.g. a {@code sponge.*} or {@code pig.spill.*} key. */
  public PigJvm set(String key, String value) {
    pig.setProperty(key, value);
    return this;
  }

  /** Makes Pig's memory manager spill every {@code millis} ms (see {@link PigSpillPressure}). */
  public PigJvm pressure(long millis) {
    this.pressureMillis = millis;
    return this;
  }

  /**
   * Starts the child through {@code wrap}, which gets the {@code java ...} command and returns the
   * one to start (for the node sweep: the command made to join a memory container first).
   */
  public PigJvm launcher(UnaryOperator<List<String>> wrap) {
    this.launcher = wrap;
    return this;
  }

  /** Counts the bytes written under java.io.tmpdir with Java Flight Recorder. */
  public PigJvm measureTmpWrites() {
    this.tmpWrites = true;
    return this;
  }

  /**
   * Reports after each job which of SpongeFiles' objects holding a task's SpongeFiles are still
   * reachable ({@link PigAttempt#held()}).
   */
  public PigJvm reportHeldAfterJobs() {
    this.heldAfterJobs = true;
    return this;
  }

  /**
   * Runs each query {@code times} times unreported before the run the child reports, so that its
   * time and CPU are those of a JVM that already loaded and compiled the query's code (a task JVM
   * reused for a job's tasks), without the compilers' start-up work, which varies by some tenths of
   * a second from one JVM to the next.
   */
  public PigJvm warmUps(int times) {
    if (times < 0) {
      throw new IllegalArgumentException("warm-ups: " + times + " (expected: >= 0)");
    }
    this.warmUps = times;
    return this;
  }

  /**
   * Runs each query's reported run {@code times} times in a row (after its warm-ups), each
   * reported: {@link #run()} then returns {@code times} entries per query, in order.
   */
  public PigJvm repeats(int times) {
    if (times < 1) {
      throw new IllegalArgumentException("repeats: " + times + " (expected: >= 1)");
    }
    this.repeats = times;
    return this;
  }

  /** The child's java.io.tmpdir. */
  public Path tmpDir() {
    return work.resolve("tmp");
  }

  /** Runs the child to its end and returns what it reported, one entry per query. */
  public List<QueryRun> run() throws IOException, InterruptedException {
    PigAttempt attempt = attempt();
    if (!attempt.finished()) {
      throw new IllegalStateException(attempt.failure());
    }
    return attempt.runs();
  }

  /**
   * Runs the child to its end, which may be a failure (a heap too small): what it reported for the
   * queries it finished, and whether it finished them all.
   */
  public PigAttempt attempt() throws IOException, InterruptedException {
    Files.createDirectories(tmpDir());
    Path conf = Files.createDirectories(work.resolve("conf"));
    if (clientConf.isEmpty()) {
      Files.writeString(conf.resolve("core-site.xml"), CORE_SITE, StandardCharsets.UTF_8);
    }
    Files.writeString(conf.resolve("log4j.properties"), LOG4J, StandardCharsets.UTF_8);
    Path properties = work.resolve("pig.properties");
    try (OutputStream out = Files.newOutputStream(properties)) {
      pig.store(out, "Pig properties of a PigJvm child");
    }
    Path log = work.resolve("child.log");
    ProcessBuilder builder =
        new ProcessBuilder(launcher.apply(command(conf, properties)))
            .directory(work.toFile())
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    Process process = builder.start();
    List<String> lines = await(process, log);
    List<QueryRun> runs = new ArrayList<>();
    List<String> held = new ArrayList<>();
    List<String> other = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("QUERY ")) {
        runs.add(QueryRun.parse(line));
      } else if (line.startsWith("HELD ")) {
        held.add(line.substring("HELD ".length()));
      } else if (!line.equals("DONE")) {
        other.add(line);
      }
    }
    boolean finished = process.exitValue() == 0 && lines.contains("DONE");
    // The JVM says why -XX:+ExitOnOutOfMemoryError ended it on its standard output, not in the log.
    String failure =
        finished
            ? ""
            : "Pig child exited "
                + process.exitValue()
                + " (log "
                + log
                + "):\n"
                + tail(log)
                + (other.isEmpty()
                    ? ""
                    : "\nits other output:\n"
                        + String.join(
                            "\n", other.subList(Math.max(0, other.size() - 10), other.size())));
    return new PigAttempt(runs, held, finished, process.exitValue(), failure);
  }

  /** The child's output lines once it exited (killed past the time limit). */
  private static List<String> await(Process process, Path log)
      throws IOException, InterruptedException {
    List<String> lines = new ArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  synchronized (lines) {
                    lines.add(line);
                  }
                }
              } catch (IOException e) {
                // The child died; its exit code and log say why.
              }
            },
            "pig-child-output");
    reader.start();
    if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException(
          "Pig child still running after "
              + TIMEOUT_MINUTES
              + " min (log "
              + log
              + "):\n"
              + tail(log));
    }
    reader.join();
    return lines;
  }

  private List<String> command(Path conf, Path properties) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms" + heap);
    command.add("-Xmx" + heap);
    command.addAll(jvmOptions);
    command.add("-XX:FlightRecorderOptions:repository=" + work.resolve("jfr"));
    command.add("-Djava.io.tmpdir=" + tmpDir());
    system.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-cp");
    command.add(
        conf
            + java.io.File.pathSeparator
            + (clientConf.isEmpty() ? "" : clientConf + java.io.File.pathSeparator)
            + (firstClasspath.isEmpty() ? "" : firstClasspath + java.io.File.pathSeparator)
            + System.getProperty("java.class.path")
            + (extraClasspath.isEmpty() ? "" : java.io.File.pathSeparator + extraClasspath));
    command.add(PigWorkloadRunner.class.getName());
    command.add("--mode");
    command.add(mode);
    command.add("--input");
    command.add(inputUri != null ? inputUri : input.toString());
    command.add("--work");
    command.add(work.toString());
    command.add("--properties");
    command.add(properties.toString());
    command.add("--queries");
    command.add(queries.stream().map(PigQuery::label).collect(Collectors.joining(",")));
    if (pressureMillis > 0) {
      command.add("--pressure-ms");
      command.add(Long.toString(pressureMillis));
    }
    if (tmpWrites) {
      command.add("--tmp-writes");
    }
    if (heldAfterJobs) {
      command.add("--held-after-jobs");
    }
    if (warmUps > 0) {
      command.add("--warm-ups");
      command.add(Integer.toString(warmUps));
    }
    if (repeats > 1) {
      command.add("--repeats");
      command.add(Integer.toString(repeats));
    }
    return command;
  }

  private static String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "";
    }
    try (Stream<String> lines = Files.lines(log)) {
      List<String> all = lines.collect(Collectors.toList());
      return String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
    }
  }

  /** Pig's and Hadoop's log (warnings, and Pig's spill messages) goes to child.log. */
  private static final String LOG4J =
      "log4j.rootLogger=WARN, stderr\n"
          + "log4j.logger.org.apache.pig.impl.util.SpillableMemoryManager=INFO\n"
          + "log4j.logger.org.spongefiles=INFO\n"
          + "log4j.appender.stderr=org.apache.log4j.ConsoleAppender\n"
          + "log4j.appender.stderr.Target=System.err\n"
          + "log4j.appender.stderr.layout=org.apache.log4j.PatternLayout\n"
          + "log4j.appender.stderr.layout.ConversionPattern=%d{HH:mm:ss,SSS} %p %c{1}: %m%n\n";

  private static final String CORE_SITE =
      "<?xml version=\"1.0\"?>\n"
          + "<configuration>\n"
          + "  <property><name>fs.defaultFS</name><value>file:///</value></property>\n"
          + "  <property><name>mapreduce.framework.name</name><value>local</value></property>\n"
          + "</configuration>\n";
}
