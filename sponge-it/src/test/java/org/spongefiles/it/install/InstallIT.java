package org.spongefiles.it.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.pig.ExecType;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.JobStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.it.Distribution;
import org.spongefiles.it.MiniYarn;
import org.spongefiles.it.ReadmeMapredSite;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.testkit.data.WebCrawlGenerator;
import org.spongefiles.workloads.median.MedianJob;
import org.spongefiles.workloads.median.MedianReference;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;

/**
 * The distribution installs as documented. The tarball is unpacked into a temporary directory as a
 * user would; a ZooKeeper stands in for the cluster's own; {@code conf/sponge-site.xml} is edited
 * as docs/operations.md says (quorum, rack, pool, secret) and a tracker and two sponge servers are
 * started with the shipped {@code bin/} scripts ({@code --instance} and {@code -D} for what differs
 * between two servers on one host); {@code bin/sponge status} shows them; a MiniMRYarnCluster job
 * runs with the README's mapred-site keys (read from the README) and {@code
 * hadoop/sponge-hadoop-<version>.jar} from the tarball in the distributed cache, the only place its
 * tasks find sponge classes (failsafe keeps every sponge module off this JVM's classpath, see
 * integration/pom.xml); a Pig script runs on the same cluster in MapReduce mode with the tarball's
 * {@code conf/sponge-pig.properties}, its bags spilling to SpongeFiles from the recipe's {@code
 * lib/} jars; then everything is stopped with the scripts and nothing may be left: no pool chunk,
 * pid file, process or listening socket.
 */
@Timeout(value = 280, unit = TimeUnit.SECONDS)
class InstallIT {
  private static final String RACK = "/rack-1";
  private static final long NUMBERS = 1_000_000;

  private Path work;
  private Path home;
  private Path poolA;
  private Path poolB;
  private Path secret;
  private TestingServer zookeeper;
  private MiniMRYarnCluster cluster;
  private final List<String[]> started = new ArrayList<>();

  @BeforeEach
  void unpack() throws Exception {
    Path tarball = Distribution.tarball();
    work = Files.createTempDirectory("sponge-install");
    Result sum =
        run(
            Distribution.dir(),
            List.of("sha512sum", "-c", tarball.getFileName() + ".sha512"),
            List.of());
    assertThat(sum.exit).as(sum.output + sum.errors).isZero();
    home = Distribution.unpack(tarball, work.resolve("unpacked"));
    Path shm = Path.of("/dev/shm");
    Path pools =
        Files.createTempDirectory(
            Files.isDirectory(shm) && Files.isWritable(shm) ? shm : work, "sponge-install-pools");
    poolA = Files.createDirectories(pools.resolve("node-a"));
    poolB = Files.createDirectories(pools.resolve("node-b"));
    zookeeper = new TestingServer(true);
  }

  @AfterEach
  void stopAll() throws Exception {
    for (String[] daemon : started) {
      script(daemon[0], "stop", "--instance", daemon[1]);
    }
    if (cluster != null) {
      cluster.stop();
    }
    if (zookeeper != null) {
      zookeeper.close();
    }
    deleteTree(poolA.getParent());
    deleteTree(work);
  }

  @Test
  void theTarballInstallsRunsAJobFromItsHadoopJarAndLeavesNothingBehind() throws Exception {
    assertThatThrownBy(() -> Class.forName("org.spongefiles.merger.SpongeShuffle"))
        .as("no sponge module on this JVM's classpath, so the tasks' cannot have one either")
        .isInstanceOf(ClassNotFoundException.class);

    // docs/operations.md: the quorum, the rack and the pool in conf/sponge-site.xml.
    Path site = home.resolve("conf/sponge-site.xml");
    String xml = Files.readString(site);
    xml = SiteXml.set(xml, "sponge.zookeeper.quorum", zookeeper.getConnectString());
    xml = SiteXml.set(xml, "sponge.rack", RACK);
    xml = SiteXml.set(xml, "sponge.pool.size", "4m");
    xml = SiteXml.set(xml, "sponge.pool.dir", poolA.toString());
    // docs/operations.md: the cluster secret, made once before the first start with the documented
    // command (one user here: no sudo, no chown), named in sponge-site.xml and by the tasks.
    secret = work.resolve("secret");
    Result made =
        run(
            home,
            List.of("sh", "-c", "umask 0027; head -c 32 /dev/urandom | base64 > " + secret),
            List.of());
    assertThat(made.exit).as(made.errors).isZero();
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(secret)))
        .isEqualTo("rw-r-----");
    xml = SiteXml.set(xml, "sponge.auth.secret.file", secret.toString());
    Files.writeString(site, xml);

    int trackerPort = freePort();
    String trackerAddress = "127.0.0.1:" + trackerPort;
    Result tracker =
        start(
            "sponge-tracker",
            "t1",
            "-Dsponge.tracker.bind.host=127.0.0.1",
            "-Dsponge.tracker.port=" + trackerPort,
            "-Dsponge.tracker.address=" + trackerAddress,
            "-Dsponge.tracker.metrics.port=" + freePort(),
            "-Dsponge.tracker.leader.check.interval=250ms");
    assertThat(tracker.exit).as(tracker.output + tracker.errors).isZero();
    int portA = freePort();
    int portB = freePort();
    Result a = start("sponge-server", "a", server("node-a", portA, poolA));
    assertThat(a.exit).as(a.output + a.errors).isZero();
    List<String> b = new ArrayList<>(List.of(server("node-b", portB, poolB)));
    b.add("-Dsponge.pool.size=64m");
    Result startedB = start("sponge-server", "b", b.toArray(new String[0]));
    assertThat(startedB.exit).as(startedB.output + startedB.errors).isZero();

    Result status = awaitStatus(2);
    JsonNode rack = new ObjectMapper().readTree(status.output);
    assertThat(rack.get("leader").asText()).isEqualTo(trackerAddress);

    Path input = work.resolve("input");
    NumbersGenerator numbers = new NumbersGenerator(NUMBERS, 4, NumbersGenerator.Shape.SKEWED, 9);
    numbers.write(input);
    long[] counts = new long[2];
    String expected = MedianReference.output(numbers, counts);

    cluster = MiniYarn.start("sponge-install");

    Configuration conf = new Configuration(cluster.getConfig());
    // The README's mapred-site.xml snippet, read from the README: its keys and no others, with
    // this install's values where the README's are examples ...
    Map<String, String> ours =
        Map.of(
            "sponge.pool.size",
            "4m",
            "sponge.tracker.addresses",
            trackerAddress,
            "sponge.auth.secret.file",
            secret.toString(),
            "sponge.rack",
            RACK);
    Map<String, String> readme = ReadmeMapredSite.properties();
    assertThat(readme).containsKeys(ours.keySet().toArray(new String[0]));
    for (Map.Entry<String, String> key : readme.entrySet()) {
      conf.set(key.getKey(), ours.getOrDefault(key.getKey(), key.getValue()));
    }
    // ... and what docs/operations.md says tasks share with their node: its pool's directory.
    conf.set("sponge.pool.dir", poolA.toString());
    MiniYarn.smallJob(conf);
    Job job =
        MedianJob.create(
            conf,
            new org.apache.hadoop.fs.Path(input.toUri()),
            new org.apache.hadoop.fs.Path(work.resolve("output").toUri()),
            counts);
    // The job's own classes: failsafe runs from the integration jar, which setJarByClass finds.
    assertThat(job.getJar()).endsWith(".jar");
    // The tarball's task jar, through the distributed cache (what -libjars does).
    Path taskJar;
    try (Stream<Path> jars = Files.list(home.resolve("hadoop"))) {
      taskJar =
          jars.filter(p -> p.getFileName().toString().startsWith("sponge-hadoop-"))
              .findFirst()
              .orElseThrow();
    }
    job.addFileToClassPath(new org.apache.hadoop.fs.Path(taskJar.toUri()));
    assertThat(job.waitForCompletion(false)).isTrue();

    assertThat(output(work.resolve("output"))).isEqualTo(expected);
    Counters counters = job.getCounters();
    assertThat(sponge(counters, "POOL_BYTES_WRITTEN")).as("node-a's pool").isPositive();
    assertThat(sponge(counters, "REMOTE_BYTES_WRITTEN")).as("node-b's server").isPositive();
    assertThat(sponge(counters, "REMOTE_UNAVAILABLE")).as("tasks without remote memory").isZero();
    // Memory never ran out: the only disk chunks are those a writer stored itself while its
    // write-behind buffers all waited on node-b's server (sponge.write.overflow).
    assertThat(sponge(counters, "DISK_CHUNKS_WRITTEN"))
        .isEqualTo(sponge(counters, "OVERFLOW_CHUNKS"));
    assertThat(sponge(counters, "POOL_BYTES_READ"))
        .isEqualTo(sponge(counters, "POOL_BYTES_WRITTEN"));
    assertThat(sponge(counters, "REMOTE_BYTES_READ"))
        .isEqualTo(sponge(counters, "REMOTE_BYTES_WRITTEN"));
    assertThat(counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS).getValue()).isEqualTo(8);

    // docs/pig-databag.md: a Pig script in MapReduce mode with the tarball's recipe.
    Map<String, Long> pig = runPigWithTheRecipe(conf, trackerAddress);
    assertThat(pig.get("BAG_SPILLS")).as("bag spills, %s", pig).isPositive();
    assertThat(pig.get("BAG_SELF_SPILLS")).as("self spills, %s", pig).isPositive();
    assertThat(pig.getOrDefault("BAG_SPILL_FAILURES", 0L)).isZero();
    assertThat(
            pig.getOrDefault("POOL_BYTES_WRITTEN", 0L)
                + pig.getOrDefault("REMOTE_BYTES_WRITTEN", 0L))
        .as("spilled bags in node-a's pool or on node-b's server, %s", pig)
        .isPositive();
    assertThat(pig.getOrDefault("DISK_CHUNKS_WRITTEN", 0L))
        .as("%s", pig)
        .isEqualTo(pig.getOrDefault("OVERFLOW_CHUNKS", 0L));

    // The tasks gave back every chunk, in node-a's pool and on node-b's server.
    JsonNode after = new ObjectMapper().readTree(sponge("status", "--json").output);
    for (JsonNode server : after.get("servers")) {
      assertThat(server.get("usedBytes").asLong()).as(server.toString()).isZero();
    }
    assertThat(after.get("topTasks")).isEmpty();

    List<Path> pidFiles = new ArrayList<>();
    try (Stream<Path> list = Files.list(home.resolve("run"))) {
      list.filter(p -> p.toString().endsWith(".pid")).forEach(pidFiles::add);
    }
    assertThat(pidFiles).hasSize(3);
    List<Long> pids = new ArrayList<>();
    for (Path pid : pidFiles) {
      pids.add(Long.parseLong(Files.readString(pid).trim()));
    }
    for (String[] daemon : started) {
      Result stop = script(daemon[0], "stop", "--instance", daemon[1]);
      assertThat(stop.exit).as(stop.output + stop.errors).isZero();
      assertThat(stop.output).contains("stopped");
    }
    started.clear();
    try (Stream<Path> list = Files.list(home.resolve("run"))) {
      assertThat(list).as("pid files").isEmpty();
    }
    for (Path pool : List.of(poolA, poolB)) {
      try (Stream<Path> list = Files.list(pool)) {
        assertThat(list).as("bin/sponge-server stop removes the pool in %s", pool).isEmpty();
      }
    }
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("daemon " + pid)
          .isFalse();
    }
    for (int port : new int[] {trackerPort, portA, portB}) {
      assertThatThrownBy(() -> new Socket().connect(new InetSocketAddress("127.0.0.1", port), 2000))
          .as("port " + port)
          .isInstanceOf(ConnectException.class);
    }
    assertThat(Files.readString(home.resolve("logs/sponge-server-a.log")))
        .contains("stopped")
        .doesNotContain("Exception");
  }

  /**
   * Runs {@link PigQuery#ANCHORTEXT} on MiniMR as a user following docs/pig-databag.md would: the
   * tarball's {@code conf/sponge-pig.properties} with its two EDIT lines edited (the distribution's
   * directory, the tasks' heap), and the node's SpongeFiles keys; Pig from this JVM's classpath
   * (the user's Pig installation), sponge classes only from the tarball's {@code lib/} jars the
   * recipe ships. The client's PIG_CLASSPATH and PIG_OPTS are left out: this script builds no bag
   * in the front end, and this JVM must stay without sponge classes. Returns the SpongeFiles
   * counters of the script's jobs, once its output equals the reference answer.
   */
  private Map<String, Long> runPigWithTheRecipe(Configuration conf, String trackerAddress)
      throws Exception {
    Path pages = work.resolve("pages");
    new WebCrawlGenerator(20141).write(pages, 30_000, 3);
    List<String> expected = PigReference.answer(PigQuery.ANCHORTEXT, pages);

    String recipe = Files.readString(home.resolve("conf/sponge-pig.properties"));
    assertThat(recipe).contains("/opt/spongefiles").contains("-Xmx1024m");
    recipe = recipe.replace("/opt/spongefiles", home.toString()).replace("-Xmx1024m", "-Xmx200m");
    Properties properties = new Properties();
    properties.load(new StringReader(recipe));
    for (String jar : properties.getProperty("pig.additional.jars.uris").split(",")) {
      assertThat(Path.of(java.net.URI.create(jar))).as("the recipe's jar").isRegularFile();
    }
    Properties all = new Properties();
    for (Map.Entry<String, String> entry : conf) {
      all.setProperty(entry.getKey(), entry.getValue());
    }
    // The cluster's configuration comes from here, not from a core-site.xml on the classpath.
    all.setProperty("pig.use.overriden.hadoop.configs", "true");
    all.setProperty("pig.temp.dir", work.resolve("pig-tmp").toString());
    // Pig's JobControl polls its jobs every 5 s on a cluster; Pig's own MiniMR tests use 100 ms.
    all.setProperty("pig.jobcontrol.sleep", "100");
    all.remove("mapreduce.job.reduce.shuffle.consumer.plugin.class");
    all.putAll(properties);
    // The node's SpongeFiles keys (sponge.pool.dir replaces the recipe's /dev/shm), as for the
    // job above; bags past 1% of the heap spill themselves.
    all.setProperty("sponge.pool.dir", poolA.toString());
    all.setProperty("sponge.pool.size", "4m");
    all.setProperty("sponge.tracker.addresses", trackerAddress);
    all.setProperty("sponge.rack", RACK);
    all.setProperty("sponge.auth.secret.file", secret.toString());
    all.setProperty("sponge.pig.bag.memory", "0.01");

    Path output = work.resolve("pig-output");
    PigServer pig = new PigServer(ExecType.MAPREDUCE, all);
    List<ExecJob> jobs;
    try {
      pig.setBatchOn();
      for (String statement :
          PigQuery.ANCHORTEXT.statements(pages.toUri().toString(), output.toUri().toString())) {
        pig.registerQuery(statement);
      }
      jobs = pig.executeBatch();
    } finally {
      pig.shutdown();
    }
    assertThat(jobs).isNotEmpty();
    for (ExecJob job : jobs) {
      assertThat(job.getStatus())
          .as("%s", job.getStatistics().getErrorMessage())
          .isEqualTo(ExecJob.JOB_STATUS.COMPLETED);
    }
    assertThat(PigReference.sortedLines(output)).isEqualTo(expected);
    Map<String, Long> sums = new TreeMap<>();
    for (JobStats stats : jobs.get(0).getStatistics().getJobGraph()) {
      org.apache.hadoop.mapred.Counters counters = stats.getHadoopCounters();
      if (counters != null) {
        for (org.apache.hadoop.mapred.Counters.Counter counter : counters.getGroup("SpongeFiles")) {
          sums.merge(counter.getName(), counter.getValue(), Long::sum);
        }
      }
    }
    System.out.println("PIG counters " + sums);
    return sums;
  }

  private String[] server(String node, int port, Path pool) throws IOException {
    return new String[] {
      "-Dsponge.node.id=" + node,
      "-Dsponge.server.bind.host=127.0.0.1",
      "-Dsponge.server.port=" + port,
      "-Dsponge.server.address=127.0.0.1:" + port,
      "-Dsponge.server.metrics.port=" + freePort(),
      "-Dsponge.pool.dir=" + pool
    };
  }

  private Result awaitStatus(int servers) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      Result status = sponge("status", "--json");
      if (status.exit == 0
          && new ObjectMapper().readTree(status.output).get("servers").size() == servers) {
        Result text = sponge("status");
        assertThat(text.exit).as(text.output + text.errors).isZero();
        assertThat(text.output).contains("Tracker leader: 127.0.0.1:").contains(RACK);
        return status;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("bin/sponge status never saw the rack: " + status.output);
      }
      Thread.sleep(250);
    }
  }

  private Result start(String daemon, String instance, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("start", "--instance", instance));
    all.addAll(List.of(args));
    Result result = script(daemon, all.toArray(new String[0]));
    if (result.exit == 0) {
      started.add(new String[] {daemon, instance});
    }
    return result;
  }

  private Result sponge(String... args) throws Exception {
    return script("sponge", args);
  }

  private Result script(String name, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/" + name).toString()));
    command.addAll(List.of(args));
    return run(
        home,
        command,
        List.of(
            "SPONGE_SERVER_OPTS=-Xmx128m",
            "SPONGE_TRACKER_OPTS=-Xmx128m -Dzookeeper.admin.enableServer=false"));
  }

  private static Result run(Path dir, List<String> command, List<String> env) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    Path stderr = Files.createTempFile("sponge-install-stderr", ".txt");
    builder.redirectError(stderr.toFile());
    builder.environment().keySet().removeIf(key -> key.startsWith("SPONGE_"));
    for (String entry : env) {
      int eq = entry.indexOf('=');
      builder.environment().put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
    String errors = Files.readString(stderr, StandardCharsets.UTF_8);
    Files.delete(stderr);
    assertThat(errors).as("standard error of " + String.join(" ", command)).doesNotContain("SLF4J");
    return new Result(process.exitValue(), output, errors);
  }

  /**
   * The job's {@code part-*} files in name order, as one text. Read here rather than with the
   * merger module's JobOutput: the installed jars, not the modules, are on this test's classpath.
   */
  private static String output(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(file -> file.getFileName().toString().startsWith("part-"))
          .sorted()
          .map(InstallIT::readPart)
          .collect(Collectors.joining());
    }
  }

  private static String readPart(Path part) {
    try {
      return Files.readString(part, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Reading job output " + part + " failed", e);
    }
  }

  private static long sponge(Counters counters, String name) {
    return counters.findCounter("SpongeFiles", name).getValue();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static final class Result {
    final int exit;
    final String output;
    final String errors;

    Result(int exit, String output, String errors) {
      this.exit = exit;
      this.output = output;
      this.errors = errors;
    }
  }
}
