package org.spongefiles.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.emulator.StaleResources;
import org.spongefiles.emulator.cluster.ClusterNetwork;
import org.spongefiles.emulator.cluster.ClusterNode;
import org.spongefiles.emulator.cluster.ClusterSettings;
import org.spongefiles.emulator.cluster.HadoopCluster;
import org.spongefiles.emulator.cluster.WorkerDaemon;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.workloads.median.MedianReference;

/**
 * Daemons dying mid-job on the emulated two-rack cluster ({@link HadoopCluster}, as root): the
 * median job, ours (the README's mapred-site keys), submitted through YARN while a fault is
 * injected at its moment, found from the daemons' own metrics and processes. Each case asserts the
 * job's answer equals the generator's, what the job saw (its failed or killed attempts and their
 * diagnostics), and that afterwards, with the dead daemon started again, no server holds a chunk of
 * any task; it prints one {@code FAULT <case> ...} line with the times measured. The cluster is
 * torn down at the end and nothing of it may be left.
 *
 * <p>Four 4 MiB pools (every NodeManager fits reducers), so a reducer fills its node's pool, then
 * the other server of its rack, then disk. Not in the default build (about 9 minutes): profile
 * {@code cluster} of sponge-it runs it with {@code -Dcluster.bench.skip=true
 * -Dcluster.faults.skip=false} (docs/benchmarks.md).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterFaultTest {
  private static final long NUMBERS = 2_000_000;

  /** Two reclaim sweeps (sponge.server.reclaim.interval, 30 s) and some. */
  private static final long CLEAN_MILLIS = 75_000;

  /** The DFS tier's directory in HDFS for the DataNode case. */
  private static final String DFS_DIR = "/sponge-dfs";

  private static final Pattern DFS_LENGTH = Pattern.compile("\"length\"\\s*:\\s*(\\d+)");

  private Path work;
  private HadoopCluster cluster;
  private Path runDir;
  private List<String> namespaces;
  private Set<String> shmBefore;
  private Path input;
  private long[] counts = new long[2];
  private String expected;
  private long baselineMillis;
  private Set<String> tmpBefore;

  @BeforeAll
  void startCluster() throws Exception {
    tmpBefore = ClusterLeftovers.begin();
    shmBefore = shm();
    work = Files.createTempDirectory("sponge-cluster-faults");
    input = work.resolve("input");
    NumbersGenerator numbers = new NumbersGenerator(NUMBERS, 4, NumbersGenerator.Shape.SKEWED, 28);
    numbers.write(input);
    expected = MedianReference.output(numbers, counts);
    ClusterSettings settings =
        ClusterJob.smokeCluster().withRack(1, 4L << 20, 3072).withRack(2, 4L << 20, 3072);
    long started = System.nanoTime();
    cluster = HadoopCluster.start(settings);
    runDir = cluster.dir;
    namespaces = cluster.network().namespaces();
    System.out.printf(
        "cluster up in %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    ClusterJob baseline = job(List.of());
    assertThat(baseline.unsuccessful).as("attempts of the job without a fault").isEmpty();
    baselineMillis = baseline.elapsedMillis;
    System.out.printf(
        Locale.ROOT,
        "FAULT none job_ms=%d remote_bytes=%d disk_bytes=%d%n",
        baselineMillis,
        baseline.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN"),
        baseline.counter("SpongeFiles", "DISK_BYTES_WRITTEN"));
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (work != null) {
      StaleResources.deleteTree(work);
    }
    if (cluster == null) {
      return;
    }
    cluster.close();
    ClusterLeftovers.assertNone(runDir, namespaces, tmpBefore);
    // The tasks' pools are the nodes' tmpfs mounts: no pool of the default directory appeared.
    Set<String> added = shm();
    added.removeAll(shmBefore);
    assertThat(added).as("files added to /dev/shm").noneMatch(name -> name.startsWith("sponge"));
  }

  /**
   * (a) kill -9 the sponge server holding a reducer's remote chunks (the job's tasks set {@code
   * sponge.tiers=remote,disk}, so they borrow remote memory whatever the timing): the reducer's
   * next read of them fails naming the server, YARN runs the reduce again and the job's answer is
   * right; the server started again frees the dead attempt's chunks in its pool (its sweep asks the
   * owner's node).
   */
  @Test
  @Order(1)
  void serverHoldingRemoteChunksKilled() throws Exception {
    ClusterNode[] victim = new ClusterNode[1];
    Faults.Injector fault =
        new Faults.Injector(
            "kill-server",
            () -> {
              for (ClusterNode worker : cluster.workers()) {
                long remote = Faults.heldChunks(cluster, worker)[1];
                if (remote > 0) {
                  victim[0] = worker;
                  long pid = cluster.kill(worker, WorkerDaemon.SPONGE_SERVER);
                  return "killed the server of "
                      + worker.host
                      + " (pid "
                      + pid
                      + ") holding "
                      + remote
                      + " remote chunks";
                }
              }
              return null;
            });
    // Remote memory only, so the reducers certainly hold chunks on their rack's servers.
    ClusterJob job = job(List.of("sponge.tiers=remote,disk"));
    String what = fault.outcome();
    String server = victim[0].host + ":" + HadoopCluster.SERVER_PORT;
    assertThat(job.output).as("answer after %s", what).isEqualTo(expected);
    List<String> failed = reduces(job.unsuccessful, "FAILED");
    assertThat(failed)
        .as("failed reduce attempts after %s", what)
        .isNotEmpty()
        .allSatisfy(attempt -> assertThat(attempt).contains(server));
    long clean = restartAndAwaitClean(victim[0], WorkerDaemon.SPONGE_SERVER);
    report("server-kill", what, fault, job, clean);
  }

  /**
   * (b) kill -9 the tracker leader while reducers spill: the follower leads within seconds, no
   * attempt fails, the answer is right.
   */
  @Test
  @Order(2)
  void trackerLeaderKilledMidSpill() throws Exception {
    long[] failover = {-1};
    long[] reported = {-1};
    Faults.Injector fault =
        new Faults.Injector(
            "kill-leader",
            () -> {
              boolean spilling = false;
              for (ClusterNode worker : cluster.workers()) {
                long[] held = Faults.heldChunks(cluster, worker);
                spilling |= held[0] + held[1] > 0;
              }
              ClusterNode leader = Faults.leader(cluster);
              if (!spilling || leader == null) {
                return null;
              }
              long pid = cluster.kill(leader, WorkerDaemon.TRACKER);
              long killed = System.nanoTime();
              ClusterNode next = null;
              while (next == null && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(60)) {
                Thread.sleep(100);
                next = Faults.leader(cluster);
              }
              failover[0] = next == null ? -1 : (System.nanoTime() - killed) / 1_000_000;
              // The servers watch the election and report to the new leader unasked.
              int workers = cluster.workers().size();
              while (next != null
                  && serversUp(next) < workers
                  && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(60)) {
                Thread.sleep(100);
              }
              reported[0] =
                  next == null || serversUp(next) < workers
                      ? -1
                      : (System.nanoTime() - killed) / 1_000_000;
              return "killed the tracker leader on "
                  + leader.host
                  + " (pid "
                  + pid
                  + "); "
                  + (next == null ? "no tracker led within 60 s" : next.host + " leads")
                  + " after "
                  + failover[0]
                  + " ms, with every server's report after "
                  + reported[0]
                  + " ms";
            });
    ClusterJob job = job(List.of());
    String what = fault.outcome();
    assertThat(job.output).as("answer after %s", what).isEqualTo(expected);
    assertThat(failover[0]).as("failover: %s", what).isBetween(0L, 15_000L);
    assertThat(reported[0]).as("every server reporting: %s", what).isBetween(0L, 15_000L);
    assertThat(job.unsuccessful).as("unsuccessful attempts after %s", what).isEmpty();
    ClusterNode killed =
        cluster.trackers().stream()
            .filter(tracker -> what.contains(" on " + tracker.host + " "))
            .findFirst()
            .orElseThrow();
    long clean = restartAndAwaitClean(killed, WorkerDaemon.TRACKER);
    report(
        "tracker-leader-kill",
        what + " failover_ms=" + failover[0] + " reports_ms=" + reported[0],
        fault,
        job,
        clean);
  }

  /**
   * (c) kill -9 the NodeManager of a node running a reducer, with its containers (the node's
   * NodeManager dies, as its machine would for YARN): the ResourceManager loses the node, the
   * application master runs the reduce (and the maps whose outputs were there) on other nodes, the
   * answer is right; the dead reducer's chunks, in its pool and on the other server, are reclaimed.
   */
  @Test
  @Order(3)
  void nodeManagerWithReducerKilled() throws Exception {
    ClusterNode[] victim = new ClusterNode[1];
    Faults.Injector fault =
        new Faults.Injector(
            "kill-nodemanager",
            () -> {
              for (ClusterNode worker : cluster.workers()) {
                Map<Long, String> reducers = reducers(worker);
                long[] held = Faults.heldChunks(cluster, worker);
                if (!reducers.isEmpty()
                    && held[0] > 0
                    && cluster.processes(worker, "MRAppMaster").isEmpty()) {
                  victim[0] = worker;
                  long pid = cluster.kill(worker, WorkerDaemon.NODEMANAGER);
                  int containers = cluster.killContainers(worker);
                  return "killed the NodeManager of "
                      + worker.host
                      + " (pid "
                      + pid
                      + ") and "
                      + containers
                      + " container processes, reducers "
                      + attemptsOf(reducers)
                      + ", "
                      + held[0]
                      + " chunks in its pool";
                }
              }
              return null;
            });
    ClusterJob job = job(List.of());
    String what = fault.outcome();
    assertThat(job.output).as("answer after %s", what).isEqualTo(expected);
    assertThat(reduces(job.unsuccessful, ""))
        .as("unsuccessful reduce attempts after %s", what)
        .anySatisfy(attempt -> assertThat(attempt).contains(" " + victim[0].host + " "));
    assertThat(job.attempts)
        .as("succeeded reduce attempts after %s", what)
        .allSatisfy(
            (attempt, host) -> {
              if (attempt.contains("_r_")) {
                assertThat(host).as(attempt).isNotEqualTo(victim[0].host);
              }
            });
    long clean = restartAndAwaitClean(victim[0], WorkerDaemon.NODEMANAGER);
    report("nodemanager-kill", what, fault, job, clean);
  }

  /**
   * (e) kill -9 the DataNode of a node whose reducer writes chunks to the DFS tier (tasks set
   * {@code sponge.tiers=pool,dfs}): HDFS's client replaces it in the write pipeline and reads the
   * other replica; no attempt fails, the answer is right, and the tier's files are deleted with
   * their SpongeFiles.
   */
  @Test
  @Order(4)
  void dataNodeKilledWhileTheDfsTierHoldsChunks() throws Exception {
    ClusterNode[] victim = new ClusterNode[1];
    Faults.Injector fault =
        new Faults.Injector(
            "kill-datanode",
            () -> {
              long bytes = dfsBytes();
              if (bytes <= 0) {
                return null;
              }
              for (ClusterNode worker : cluster.workers()) {
                if (!reducers(worker).isEmpty()) {
                  victim[0] = worker;
                  long pid = cluster.kill(worker, WorkerDaemon.DATANODE);
                  return "killed the DataNode of "
                      + worker.host
                      + " (pid "
                      + pid
                      + "), reducers "
                      + attemptsOf(reducers(worker))
                      + ", "
                      + bytes
                      + " bytes in "
                      + DFS_DIR;
                }
              }
              return null;
            });
    ClusterJob job =
        job(
            List.of(
                "sponge.tiers=pool,dfs",
                "sponge.dfs.dir=hdfs://"
                    + ClusterNetwork.MASTER
                    + ":"
                    + HadoopCluster.NAMENODE_PORT
                    + DFS_DIR));
    String what = fault.outcome();
    assertThat(job.output).as("answer after %s", what).isEqualTo(expected);
    assertThat(job.counter("SpongeFiles", "DFS_BYTES_WRITTEN")).as("DFS tier bytes").isPositive();
    assertThat(job.counter("SpongeFiles", "DFS_BYTES_READ"))
        .isEqualTo(job.counter("SpongeFiles", "DFS_BYTES_WRITTEN"));
    assertThat(reduces(job.unsuccessful, "")).as("unsuccessful reduces after %s", what).isEmpty();
    assertThat(dfsBytes()).as("bytes left in %s", DFS_DIR).isZero();
    long clean = restartAndAwaitClean(victim[0], WorkerDaemon.DATANODE);
    report("datanode-kill", what, fault, job, clean);
  }

  /**
   * (d) a speculative second attempt of a reduce beside the first: one reducer's JVM is slowed
   * (stopped 900 ms of every second with SIGSTOP and SIGCONT, a node too busy to keep up) until the
   * application master, its speculator seeing the other reduce done, starts a second attempt on
   * another node (maps not speculated, the speculator checking every second); the first to finish
   * wins, YARN kills the other, the answer is right, and the loser's chunks are freed.
   */
  @Test
  @Order(5)
  void speculativeReduceBesideTheFirst() throws Exception {
    String[] slowed = new String[2];
    Faults.Injector fault =
        new Faults.Injector(
            "slow-reducer",
            () -> {
              for (ClusterNode worker : cluster.workers()) {
                for (Map.Entry<Long, String> reducer : reducers(worker).entrySet()) {
                  if (!reducer.getValue().contains("bash")) {
                    Faults.throttle(reducer.getKey(), 900, 100);
                    slowed[0] = attemptsOf(Map.of(reducer.getKey(), reducer.getValue())).first();
                    slowed[1] = worker.host;
                    return "slowed reducer "
                        + slowed[0]
                        + " on "
                        + worker.host
                        + " (pid "
                        + reducer.getKey()
                        + ") to a tenth";
                  }
                }
              }
              return null;
            });
    ClusterJob job =
        job(
            List.of(
                "mapreduce.map.speculative=false",
                "mapreduce.reduce.speculative=true",
                "mapreduce.job.speculative.retry-after-no-speculate=500",
                "mapreduce.job.speculative.retry-after-speculate=1000"));
    String what = fault.outcome();
    long start = System.nanoTime();
    assertThat(job.output).as("answer after %s", what).isEqualTo(expected);
    // The job's completion events leave out an attempt killed because another won; the history
    // server lists every attempt of the slowed task.
    String task = taskOf(slowed[0]);
    String jobId = "job_" + task.substring("attempt_".length(), task.indexOf("_r_"));
    JsonNode attempts =
        new ObjectMapper()
            .readTree(
                cluster.fetch(
                    "http://"
                        + ClusterNetwork.MASTER
                        + ":"
                        + HadoopCluster.HISTORY_HTTP_PORT
                        + "/ws/v1/history/mapreduce/jobs/"
                        + jobId
                        + "/tasks/"
                        + task.replace("attempt_", "task_")
                        + "/attempts"))
            .path("taskAttempts")
            .path("taskAttempt");
    Map<String, String> states = new TreeMap<>();
    Map<String, String> nodes = new TreeMap<>();
    for (JsonNode attempt : attempts) {
      states.put(attempt.path("id").asText(), attempt.path("state").asText());
      nodes.put(attempt.path("id").asText(), attempt.path("nodeHttpAddress").asText());
    }
    assertThat(states)
        .as("attempts of %s after %s (on %s)", task, what, nodes)
        .containsEntry(slowed[0], "KILLED")
        .containsValue("SUCCEEDED")
        .hasSizeGreaterThanOrEqualTo(2);
    String winner =
        states.entrySet().stream()
            .filter(attempt -> attempt.getValue().equals("SUCCEEDED"))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    assertThat(nodes.get(winner)).as("node of the winner %s", winner).doesNotStartWith(slowed[1]);
    long clean = awaitClean(start, "the speculative job");
    report("speculative-reduce", what + "; attempts " + states + " on " + nodes, fault, job, clean);
  }

  /** The sponge servers up in the view of tracker {@code tracker}'s metrics (-1: none). */
  private long serversUp(ClusterNode tracker) throws IOException {
    return Faults.metrics(cluster, tracker, HadoopCluster.TRACKER_METRICS_PORT)
        .getOrDefault("sponge_tracker_servers_seen{state=\"up\"}", -1.0)
        .longValue();
  }

  /** The job, ours, with {@code settings}; its answer is checked by the caller. */
  private ClusterJob job(List<String> settings) throws IOException, InterruptedException {
    return ClusterJob.submit(
        cluster, null, ClusterJob.MEDIAN_DIR, MedianClient.OURS, input, counts, work, settings);
  }

  /**
   * Starts {@code daemon} of {@code node} again, then waits until no server holds a chunk; returns
   * how long that took after the restart (fails past {@link #CLEAN_MILLIS}).
   */
  private long restartAndAwaitClean(ClusterNode node, WorkerDaemon daemon) throws Exception {
    cluster.restart(node, daemon);
    return awaitClean(System.nanoTime(), "the restart of " + daemon + " on " + node.host);
  }

  /**
   * Waits until no server holds a chunk; returns the milliseconds since {@code start} (fails past
   * {@link #CLEAN_MILLIS}).
   */
  private long awaitClean(long start, String since) throws Exception {
    while (!Faults.nothingHeld(cluster)) {
      if (System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(CLEAN_MILLIS)) {
        throw new AssertionError(
            "Chunks still held "
                + CLEAN_MILLIS
                + " ms after the job and "
                + since
                + ": "
                + Faults.holdings(cluster));
      }
      Thread.sleep(250);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** Bytes of files under {@link #DFS_DIR} in HDFS, from the NameNode's REST API; 0 if none. */
  private long dfsBytes() throws IOException {
    Matcher length =
        DFS_LENGTH.matcher(
            cluster.fetch(
                "http://"
                    + ClusterNetwork.MASTER
                    + ":"
                    + HadoopCluster.NAMENODE_HTTP_PORT
                    + "/webhdfs/v1"
                    + DFS_DIR
                    + "?op=GETCONTENTSUMMARY"));
    return length.find() ? Long.parseLong(length.group(1)) : 0;
  }

  private void report(String name, String what, Faults.Injector fault, ClusterJob job, long clean) {
    List<String> unsuccessful = new ArrayList<>();
    job.unsuccessful.forEach(
        (attempt, line) -> {
          String[] fields = line.split(" ", 3);
          unsuccessful.add(attempt + "@" + fields[0] + ":" + fields[1]);
          System.out.printf("FAULT %s attempt %s: %s%n", name, attempt, cause(line));
        });
    System.out.printf(
        Locale.ROOT,
        "FAULT %s verdict=ok job_ms=%d baseline_ms=%d fault_at_ms=%d clean_ms=%d"
            + " remote_bytes=%d disk_bytes=%d dfs_bytes=%d remote_unavailable=%d"
            + " unsuccessful=%s what=\"%s\"%n",
        name,
        job.elapsedMillis,
        baselineMillis,
        fault.atMillis(),
        clean,
        job.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN"),
        job.counter("SpongeFiles", "DISK_BYTES_WRITTEN"),
        job.counter("SpongeFiles", "DFS_BYTES_WRITTEN"),
        job.counter("SpongeFiles", "REMOTE_UNAVAILABLE"),
        unsuccessful,
        what);
  }

  /**
   * What an attempt's diagnostics say went wrong: a SpongeFiles read's message (naming the chunk
   * and its server) if there is one, else the innermost cause, else their start; without the stack.
   */
  private static String cause(String diagnostics) {
    int read = diagnostics.indexOf("Cannot read ");
    int caused = diagnostics.lastIndexOf("Caused by: ");
    String text =
        read >= 0
            ? diagnostics.substring(read)
            : caused >= 0 ? diagnostics.substring(caused) : diagnostics;
    int stack = text.indexOf(" at ");
    return (stack < 0 ? text : text.substring(0, stack)).trim();
  }

  /** The reduce attempts among {@code attempts} whose status starts with {@code status}. */
  private static List<String> reduces(Map<String, String> attempts, String status) {
    return attempts.entrySet().stream()
        .filter(attempt -> attempt.getKey().contains("_r_"))
        .map(attempt -> attempt.getKey() + " " + attempt.getValue())
        .filter(line -> line.split(" ")[2].startsWith(status))
        .collect(Collectors.toList());
  }

  /** Reduce task JVMs running on {@code node}. */
  private Map<Long, String> reducers(ClusterNode node) throws IOException {
    Map<Long, String> reducers = new HashMap<>();
    cluster
        .processes(node, "YarnChild")
        .forEach(
            (pid, command) -> {
              if (command.contains("_r_") && command.contains("java")) {
                reducers.put(pid, command);
              }
            });
    return reducers;
  }

  /** The task of {@code attempt}: its id without the attempt number. */
  private static String taskOf(String attempt) {
    return attempt.substring(0, attempt.lastIndexOf('_'));
  }

  private static TreeSet<String> attemptsOf(Map<Long, String> reducers) {
    TreeSet<String> attempts = new TreeSet<>();
    for (String command : reducers.values()) {
      for (String word : command.split(" ")) {
        if (word.startsWith("attempt_")) {
          attempts.add(word);
        }
      }
    }
    return attempts;
  }

  private static Set<String> shm() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
      return files
          .map(file -> file.getFileName().toString())
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
