package org.spongefiles.it.merger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.SpongeOptions;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.it.MiniYarn;
import org.spongefiles.merger.MergerCounter;
import org.spongefiles.merger.SpongeMergerSetup;
import org.spongefiles.server.ServerMain;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.SpongeTestConf;
import org.spongefiles.testkit.TestDirs;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.testkit.mapreduce.JobOutput;
import org.spongefiles.tracker.MemoryTracker;
import org.spongefiles.workloads.median.MedianJob;

/**
 * The merger in real task JVMs on a MiniMRYarnCluster, beside a ZooKeeper, a memory tracker and
 * sponge servers on 127.0.0.1: reducers share their node's pool and borrow a server's memory
 * through the tracker; and a reducer whose spills sit on a server that is SIGKILLed while it reads
 * them fails naming the server and the chunk, and its retry succeeds.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MiniClusterMergerTest {
  private static final int CHUNK = 64 << 10;
  private static final String RACK = "/rack-1";
  private static final long NUMBERS = 1_500_000;

  private static final List<Path> dirs = new ArrayList<>();
  private static Path root;
  private static Path input;
  private static NumbersGenerator numbers;
  private static TestingServer zookeeper;
  private static SpongeServer lender;
  private static MemoryTracker tracker;
  private static MiniMRYarnCluster cluster;
  private static Path jobJar;

  @BeforeAll
  static void startCluster() throws Exception {
    root = Files.createTempDirectory("merger-minimr");
    dirs.add(root);
    numbers = new NumbersGenerator(NUMBERS, 6, NumbersGenerator.Shape.SKEWED, 5);
    input = root.resolve("input");
    numbers.write(input);
    jobJar = JobJar.of(root.resolve("job.jar"), MedianJob.class, PausingMedianReducer.class);

    zookeeper = new TestingServer(true);
    lender = SpongeServer.start(serverConf("node-b", 1024));
    tracker = MemoryTracker.start(trackerConf());

    cluster = MiniYarn.start("sponge-merger");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.stop();
    }
    if (tracker != null) {
      tracker.close();
    }
    if (lender != null) {
      lender.close();
    }
    if (zookeeper != null) {
      zookeeper.close();
    }
    dirs.forEach(TestDirs::deleteTree);
  }

  @Test
  void reducersShareTheNodePoolAndBorrowRemoteMemoryThroughTheTracker() throws Exception {
    Configuration conf = taskConf("pool", "remote", "disk");
    ClusterOptions.TRACKER_ADDRESSES.set(conf, List.of(tracker.endpoint()));
    long[] counts = new long[2];
    String expected = expectedOutput(counts);

    Job job = median(conf, counts, "tracker");
    assertThat(job.waitForCompletion(false)).isTrue();

    assertThat(readOutput(job)).isEqualTo(expected);
    Counters counters = job.getCounters();
    assertThat(sponge(counters, "POOL_BYTES_WRITTEN")).isPositive();
    assertThat(sponge(counters, "REMOTE_BYTES_WRITTEN")).isPositive();
    // Memory never ran out: the only disk chunks are those a writer stored itself while the
    // lender's write-behind queue was full (sponge.write.overflow).
    assertThat(sponge(counters, "DISK_CHUNKS_WRITTEN"))
        .isEqualTo(sponge(counters, "OVERFLOW_CHUNKS"));
    assertThat(
            sponge(counters, MergerCounter.MAP_OUTPUTS_SPILLED.name())
                + sponge(counters, MergerCounter.MAP_OUTPUTS_IN_MEMORY.name()))
        .isEqualTo(12);
    assertThat(counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS).getValue()).isEqualTo(12);
    TaskReport[] reduces = job.getTaskReports(TaskType.REDUCE);
    assertThat(reduces).hasSize(2);
    for (TaskReport reduce : reduces) {
      // Both reduce JVMs spilled to memory, the node's one pool or the lender's: which of them
      // found the 4 MiB pool full first depends on timing, so only the sum shows both tiers.
      Counters own = reduce.getTaskCounters();
      long memory =
          own.findCounter(MergerCounter.GROUP, "POOL_BYTES_WRITTEN").getValue()
              + own.findCounter(MergerCounter.GROUP, "REMOTE_BYTES_WRITTEN").getValue();
      assertThat(memory).isPositive();
      assertThat(own.findCounter(MergerCounter.GROUP, "FILES_CREATED").getValue()).isPositive();
    }
  }

  @Test
  void aServerKilledWhileTheReducerReadsFailsTheAttemptAndTheRetrySucceeds() throws Exception {
    Path stderr = root.resolve("killed-server.log");
    ChildJvm server =
        ChildJvm.start(
            ServerMain.class, stderr, List.of("-Xmx128m"), arguments(serverConf("node-c", 1024)));
    try {
      String endpoint = server.awaitLine("READY", 60, TimeUnit.SECONDS).split(" ")[1];
      Path pause = Files.createDirectories(root.resolve("pause"));
      Configuration conf = taskConf("remote", "disk");
      SpongeOptions.REMOTE_SERVERS.set(conf, List.of(endpoint));
      // Every spill on the server: with overflow a lagging server's chunks went to disk, and once
      // (stop 40) the attempt read nothing from the server after its pause and did not fail.
      SpongeOptions.WRITE_OVERFLOW.set(conf, false);
      conf.set(PausingMedianReducer.PAUSE_DIR, pause.toString());
      long[] counts = new long[1];
      String expected = expectedOutput(counts);

      Job job = median(conf, counts, "killed");
      job.setReducerClass(PausingMedianReducer.class);
      job.submit();
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> Files.exists(pause.resolve("reading")) || job.isComplete());
      assertThat(job.isComplete()).as("job ended before its reducer read").isFalse();
      server.kill();
      Files.createFile(pause.resolve("killed"));
      assertThat(job.waitForCompletion(false)).isTrue();

      assertThat(readOutput(job)).isEqualTo(expected);
      Counters counters = job.getCounters();
      assertThat(counters.findCounter(JobCounter.NUM_FAILED_REDUCES).getValue()).isEqualTo(1);
      // The retry found the server gone and spilled to disk.
      assertThat(sponge(counters, "DISK_BYTES_WRITTEN")).isPositive();
      String diagnostics = failedReduceDiagnostics(job);
      assertThat(diagnostics)
          .contains("on server " + endpoint)
          .containsPattern("remote chunk \\d+");
    } finally {
      server.close();
    }
  }

  private static Job median(Configuration conf, long[] counts, String name) throws IOException {
    Path output = root.resolve("output-" + name);
    Job job =
        MedianJob.create(
            conf,
            new org.apache.hadoop.fs.Path(input.toUri()),
            new org.apache.hadoop.fs.Path(output.toUri()),
            counts);
    job.setJar(jobJar.toString());
    return job;
  }

  /** Fills {@code counts} (one per reducer) and returns the job's expected output. */
  private static String expectedOutput(long[] counts) {
    StringBuilder text = new StringBuilder();
    for (int p = 0; p < counts.length; p++) {
      int partition = p;
      int partitions = counts.length;
      java.util.function.LongPredicate mine =
          value -> MedianJob.partition(value, partitions) == partition;
      counts[p] = partitions == 1 ? numbers.count() : numbers.count(mine);
      long median = numbers.lowerMedian(partitions == 1 ? value -> true : mine);
      text.append(NumbersGenerator.format(median)).append('\t').append(counts[p]).append('\n');
    }
    return text.toString();
  }

  /** A task's configuration: the cluster's, SpongeFiles on node-a's small pool, tiny shuffle. */
  private static Configuration taskConf(String... tiers) {
    Configuration conf = new Configuration(cluster.getConfig());
    Path pool = TestDirs.newShmDir("minimr-node-a");
    Path disk = TestDirs.newShmDir("minimr-disk");
    dirs.add(pool);
    dirs.add(disk);
    SpongeMergerSetup.enable(conf);
    rackMember(conf, "node-a");
    SpongeOptions.SERVER_ADDRESS.set(conf, "");
    SpongeOptions.TIERS.set(conf, List.of(tiers));
    SpongeOptions.POOL_DIR.set(conf, pool.toString());
    SpongeOptions.POOL_SIZE.set(conf, 4L << 20);
    SpongeOptions.DISK_DIRS.set(conf, List.of(disk.toString()));
    SpongeOptions.DISK_RESERVE.set(conf, 0L);
    SpongeOptions.REMOTE_CONNECT_TIMEOUT.set(conf, Duration.ofSeconds(2));
    SpongeOptions.REMOTE_IO_TIMEOUT.set(conf, Duration.ofSeconds(10));
    ClusterOptions.TRACKER_TIMEOUT.set(conf, Duration.ofMillis(500));
    conf.setInt("mapreduce.reduce.maxattempts", 2);
    return MiniYarn.smallJob(conf);
  }

  /** What every process of the rack shares: its node, rack, ZooKeeper and chunks. */
  private static Configuration rackMember(Configuration conf, String node) {
    SpongeOptions.NODE_ID.set(conf, node);
    ClusterOptions.RACK.set(conf, RACK);
    ClusterOptions.ZOOKEEPER_QUORUM.set(conf, zookeeper.getConnectString());
    ClusterOptions.ZOOKEEPER_SESSION_TIMEOUT.set(conf, Duration.ofSeconds(2));
    SpongeOptions.POOL_PERMISSIONS.set(conf, "rw-------");
    SpongeOptions.CHUNK_SIZE.set(conf, (long) CHUNK);
    SpongeOptions.CHECKSUM_BLOCK_SIZE.set(conf, 16L << 10);
    return conf;
  }

  private static Configuration serverConf(String node, int chunks) {
    Path pool = TestDirs.newShmDir("minimr-" + node);
    dirs.add(pool);
    return SpongeTestConf.loopbackServer(
        rackMember(new Configuration(false), node), node, pool, (long) chunks * CHUNK);
  }

  private static Configuration trackerConf() {
    return SpongeTestConf.loopbackTracker(
        rackMember(new Configuration(false), "tracker-1"), "tracker-1", "200ms");
  }

  private static String[] arguments(Configuration conf) {
    List<String> args = new ArrayList<>();
    for (java.util.Map.Entry<String, String> entry : conf) {
      args.add("-D" + entry.getKey() + "=" + entry.getValue());
    }
    return args.toArray(new String[0]);
  }

  private static long sponge(Counters counters, String name) {
    return counters.findCounter(MergerCounter.GROUP, name).getValue();
  }

  private static String failedReduceDiagnostics(Job job) throws Exception {
    StringBuilder text = new StringBuilder();
    for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
      if (event.getStatus() == TaskCompletionEvent.Status.FAILED
          && event.getTaskAttemptId().getTaskType() == TaskType.REDUCE) {
        for (String diagnostic : job.getTaskDiagnostics(event.getTaskAttemptId())) {
          text.append(diagnostic).append('\n');
        }
      }
    }
    return text.toString();
  }

  private static String readOutput(Job job) throws IOException {
    return JobOutput.text(
        Path.of(
            org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.getOutputPath(job).toUri()));
  }
}
