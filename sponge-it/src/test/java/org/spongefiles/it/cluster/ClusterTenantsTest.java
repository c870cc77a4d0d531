package org.spongefiles.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.emulator.Teardown;
import org.spongefiles.emulator.cluster.ClusterNode;
import org.spongefiles.emulator.cluster.ClusterSettings;
import org.spongefiles.emulator.cluster.HadoopCluster;
import org.spongefiles.it.merger.JobJar;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.workloads.median.MedianReference;

/**
 * Two users' jobs at once on the emulated two-rack cluster ({@link HadoopCluster}, as root), and
 * racks proven from the servers' side. Hadoop users {@code alice} and {@code bob} (simple
 * authentication: {@code HADOOP_USER_NAME}) submit the median job, ours, each on numbers of its
 * own, at the same moment; every task borrows remote memory only ({@code sponge.tiers=remote,disk},
 * so every chunk goes through a server and its session), one reducer per node (1280 MiB reducers on
 * 2500 MiB NodeManagers, so all four fit at once), and every server caps a session at {@value
 * #QUOTA_CHUNKS} chunks ({@code sponge.server.quota.per.task}). Rack 1's pools hold 1 chunk each,
 * so its reducers fill their rack at once; rack 2's hold 16, so there is always room across the
 * core. Meanwhile a task of a third job, bob's {@link TenantProbe}, is handed the handles of
 * alice's chunks as the servers' pools record them (their owner entries, owners found by pid:
 * {@code USER=alice} in the task's environment) and tries to read, write and free each through the
 * real client.
 *
 * <p>Asserted: both answers equal their generators'; no attempt failed; every probe was refused
 * ({@code NO_SUCH_CHUNK}, "not this session's", nothing freed), at least one while the pool still
 * recorded that chunk as alice's afterwards; from the servers' own metrics, polled while the jobs
 * ran, no session ever held more than its quota and the servers refused allocations past it ({@code
 * QUOTA_EXCEEDED}), every task holding chunks on a server ran in that server's rack, both racks'
 * servers held reducers' chunks at once, and rack 1's servers were all full while rack 2's had room
 * (its reducers went to disk, never across). Prints one {@code TENANTS} line. Not in the default
 * build (about 2 minutes): profile {@code cluster} of sponge-it runs it with {@code
 * -Dcluster.bench.skip=true -Dcluster.tenants.skip=false} (docs/benchmarks.md).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ClusterTenantsTest {
  private static final long NUMBERS = 2_000_000;
  private static final int QUOTA_CHUNKS = 2;
  private static final String ALICE = "alice";
  private static final String BOB = "bob";
  private static final List<String> JOB_SETTINGS =
      List.of(
          "sponge.tiers=remote,disk",
          "mapreduce.reduce.memory.mb=1280",
          "mapreduce.job.reduce.slowstart.completedmaps=1.0",
          "mapreduce.reduce.speculative=false");

  @TempDir Path work;

  @Test
  void twoUsersAtOnceKeepToTheirQuotasTheirChunksAndTheirRacks() throws Exception {
    Set<String> tmpBefore = ClusterLeftovers.begin();

    Map<String, NumbersGenerator> numbers =
        Map.of(
            ALICE, new NumbersGenerator(NUMBERS, 4, NumbersGenerator.Shape.SKEWED, 28),
            BOB, new NumbersGenerator(NUMBERS, 4, NumbersGenerator.Shape.UNIFORM, 29));
    Map<String, long[]> counts = new HashMap<>();
    Map<String, String> expected = new HashMap<>();
    for (String user : List.of(ALICE, BOB)) {
      Files.createDirectories(work.resolve(user));
      numbers.get(user).write(work.resolve(user).resolve("input"));
      counts.put(user, new long[2]);
      expected.put(user, MedianReference.output(numbers.get(user), counts.get(user)));
    }
    assertThat(expected.get(ALICE)).isNotEqualTo(expected.get(BOB));
    Path probeJar = JobJar.of(work.resolve("probe.jar"), TenantProbe.class);
    Path targets = work.resolve("alice-chunks");
    Path ended = work.resolve("jobs-ended");

    ClusterSettings settings =
        ClusterJob.smokeCluster()
            .withRack(1, 1L << 20, 2500)
            .withRack(2, 16L << 20, 2500)
            .withServerSite(Map.of("sponge.server.quota.per.task", QUOTA_CHUNKS + "m"));
    Path runDir;
    List<String> namespaces;
    try (HadoopCluster cluster = HadoopCluster.start(settings)) {
      runDir = cluster.dir;
      namespaces = cluster.network().namespaces();
      Map<String, ClusterNode> byHost = new HashMap<>();
      cluster.workers().forEach(node -> byHost.put(node.host, node));

      homes(cluster);
      TenantWatch watch = new TenantWatch(cluster, ALICE, targets);
      watch.start();
      Map<String, ClusterJob> jobs = new TreeMap<>();
      List<String> probes;
      // A thread per client: alice's and bob's jobs and bob's probe run at once on any machine.
      ExecutorService clients = Executors.newFixedThreadPool(3);
      try {
        Map<String, CompletableFuture<ClusterJob>> running = new HashMap<>();
        for (String user : List.of(ALICE, BOB)) {
          running.put(
              user,
              CompletableFuture.supplyAsync(
                  () -> median(cluster, user, counts.get(user)), clients));
        }
        // Bob's probe job tries every handle of alice's it sees until both jobs ended.
        List<String> probeArgs =
            List.of("/" + BOB, probeJar.toString(), targets.toString(), ended.toString(), "300");
        CompletableFuture<List<String>> probe =
            CompletableFuture.supplyAsync(() -> probe(cluster, probeArgs), clients);
        for (Map.Entry<String, CompletableFuture<ClusterJob>> job : running.entrySet()) {
          try {
            jobs.put(job.getKey(), job.getValue().get());
          } catch (ExecutionException e) {
            throw new AssertionError(job.getKey() + "'s median job", e.getCause());
          }
        }
        Files.createFile(ended);
        try {
          probes = probe.get();
        } catch (ExecutionException e) {
          throw new AssertionError("bob's probe job", e.getCause());
        }
      } finally {
        clients.shutdownNow();
        watch.stop();
      }

      for (String user : List.of(ALICE, BOB)) {
        ClusterJob job = jobs.get(user);
        assertThat(job.output).as("%s's answer", user).isEqualTo(expected.get(user));
        assertThat(job.unsuccessful).as("%s's unsuccessful attempts", user).isEmpty();
        // MapReduce numbers a second application master's task attempts from 1000.
        assertThat(job.attempts.keySet())
            .as("%s's task attempts, all of the first application master", user)
            .allMatch(
                attempt ->
                    Integer.parseInt(attempt.substring(attempt.lastIndexOf('_') + 1)) < 1000);
      }
      Map<String, String> hosts = new HashMap<>();
      jobs.values().forEach(job -> hosts.putAll(job.attempts));

      System.out.printf(
          "servers: most chunks per session %s, least free chunks %s, polls with both racks"
              + " holding %d, with rack 1 full and room in rack 2 %d%n",
          new TreeMap<>(watch.mostChunks),
          new TreeMap<>(watch.leastFree),
          watch.bothRacksAtOnce,
          watch.rackOneFullWithRoomAcross);
      // Bob's task, handed alice's chunk handles, could neither read, write nor free one.
      System.out.println("probes: " + String.join("\n  ", probes));
      assertThat(probes).as("bob's probes of alice's chunks").isNotEmpty();
      int whileHeld = 0;
      for (String probe : probes) {
        String[] fields = probe.split(" ");
        String owner = fields[5];
        assertThat(jobs.get(ALICE).attempts)
            .as("owner of the chunk in %s", probe)
            .containsKey(owner);
        assertThat(probe)
            .as("a probe of alice's chunk")
            .containsPattern(" READ=NO_SUCH_CHUNK:\\S*is_not_this_session's")
            .containsPattern(" WRITE=NO_SUCH_CHUNK:\\S*is_not_this_session's")
            .endsWith(" FREE=0");
        String handle = String.join(" ", fields[2], fields[3], fields[4], owner);
        if (watch.lastSeen.getOrDefault(handle, 0L) > Long.parseLong(fields[1])) {
          whileHeld++;
        }
      }
      assertThat(whileHeld)
          .as("probes after which the pool still recorded the chunk as alice's: %s", probes)
          .isPositive();

      // The servers' own word: quotas held and were needed; every task in its server's rack.
      assertThat(watch.mostChunks)
          .as("most chunks a session held on a server")
          .isNotEmpty()
          .allSatisfy(
              (serverTask, chunks) ->
                  assertThat(chunks).as(serverTask).isBetween(1L, (long) QUOTA_CHUNKS));
      long quotaRefusals = 0;
      for (ClusterNode worker : cluster.workers()) {
        quotaRefusals +=
            Faults.metrics(cluster, worker, HadoopCluster.SERVER_METRICS_PORT)
                .getOrDefault("sponge_server_errors_total{code=\"QUOTA_EXCEEDED\"}", 0.0)
                .longValue();
      }
      assertThat(quotaRefusals).as("allocations the servers refused past a quota").isPositive();
      for (String serverTask : watch.mostChunks.keySet()) {
        String server = serverTask.substring(0, serverTask.indexOf(' '));
        String task = serverTask.substring(server.length() + 1);
        assertThat(hosts)
            .as("the host of %s, holding chunks on %s", task, server)
            .containsKey(task);
        assertThat(byHost.get(hosts.get(task)).rack)
            .as("rack of %s (on %s) holding chunks on %s", task, hosts.get(task), server)
            .isEqualTo(byHost.get(server).rack);
      }
      assertThat(watch.bothRacksAtOnce)
          .as("polls at which servers of both racks held reducers' chunks")
          .isPositive();
      assertThat(watch.rackOneFullWithRoomAcross)
          .as("polls at which rack 1's servers were full and rack 2's had room")
          .isPositive();
      long disk =
          jobs.values().stream()
              .mapToLong(job -> job.counter("SpongeFiles", "DISK_BYTES_WRITTEN"))
              .sum();
      assertThat(disk).as("bytes the jobs' tasks wrote to disk").isPositive();
      System.out.printf(
          Locale.ROOT,
          "TENANTS verdict=ok alice_ms=%d bob_ms=%d remote_bytes=%d disk_bytes=%d"
              + " quota_refusals=%d probes=%d probes_while_held=%d both_racks_polls=%d"
              + " rack1_full_room_across_polls=%d most_chunks=%s%n",
          jobs.get(ALICE).elapsedMillis,
          jobs.get(BOB).elapsedMillis,
          jobs.values().stream()
              .mapToLong(job -> job.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN"))
              .sum(),
          disk,
          quotaRefusals,
          probes.size(),
          whileHeld,
          watch.bothRacksAtOnce,
          watch.rackOneFullWithRoomAcross,
          new TreeMap<>(watch.mostChunks));
    }
    ClusterLeftovers.assertNone(runDir, namespaces, tmpBefore);
  }

  /**
   * What an operator does in HDFS for users besides its superuser: a home directory each (here
   * {@code /alice} and {@code /bob}), and {@code /tmp} with YARN's staging directories open to all
   * (mode 1777), or their jobs cannot be submitted.
   */
  private static void homes(HadoopCluster cluster) throws IOException, InterruptedException {
    // HDFS paths: YARN's default staging directory and its parents, and the job history's
    // intermediate directory below it, where every user's application master writes (Hadoop's
    // cluster setup: 1777). Without it the history server makes its parent 770 for its own user
    // and the first application master attempt of each user failed ("Permission denied:
    // user=alice, access=EXECUTE, inode=.../staging/history"); YARN's second attempt then ran the
    // job seconds later.
    org.apache.hadoop.fs.Path staging =
        new org.apache.hadoop.fs.Path(MRJobConfig.DEFAULT_MR_AM_STAGING_DIR);
    org.apache.hadoop.fs.Path intermediate =
        new org.apache.hadoop.fs.Path(
            JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(
                new Configuration(false)));
    String stagingParent = staging.getParent().toString();
    String tmp = staging.getParent().getParent().toString();
    List<List<String>> commands =
        List.of(
            List.of("-mkdir", "-p", intermediate.toString(), "/" + ALICE, "/" + BOB),
            List.of(
                "-chmod",
                "1777",
                tmp,
                stagingParent,
                staging.toString(),
                intermediate.getParent().toString(),
                intermediate.toString()),
            List.of("-chown", ALICE, "/" + ALICE),
            List.of("-chown", BOB, "/" + BOB));
    for (List<String> command : commands) {
      ClusterJob.runOnMaster(cluster, null, FsShell.class, command, "hdfs dfs " + command);
    }
  }

  /** Bob's {@link TenantProbe} job with {@code args}: its {@code PROBE} lines. */
  private static List<String> probe(HadoopCluster cluster, List<String> args) {
    try {
      return ClusterJob.runOnMaster(cluster, BOB, TenantProbe.class, args, "bob's probe job")
          .stream()
          .filter(line -> line.startsWith("PROBE "))
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private ClusterJob median(HadoopCluster cluster, String user, long[] counts) {
    try {
      return ClusterJob.submit(
          cluster,
          user,
          "/" + user,
          MedianClient.OURS,
          work.resolve(user).resolve("input"),
          counts,
          work.resolve(user),
          JOB_SETTINGS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Watches every server while the jobs run, every 150 ms: its metrics (chunks per session, free
   * chunks) and its pool's owner entries, whose chunks of {@code user}'s tasks it writes into the
   * side file {@code targets} ({@code <server> <index> <generation> <attempt>} lines) and remembers
   * when it last saw each.
   */
  private static final class TenantWatch {
    /** {@code <server host> <task>} to the most chunks the server counted for it at one poll. */
    final Map<String, Long> mostChunks = new ConcurrentHashMap<>();

    /** Each server's fewest free chunks at one poll. */
    final Map<String, Long> leastFree = new ConcurrentHashMap<>();

    /** {@code <server> <index> <generation> <attempt>} to when the pool last recorded it held. */
    final Map<String, Long> lastSeen = new ConcurrentHashMap<>();

    volatile int bothRacksAtOnce;
    volatile int rackOneFullWithRoomAcross;
    private final HadoopCluster cluster;
    private final String user;
    private final Path targets;
    private final Map<Long, String> owners = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Exception failure;

    TenantWatch(HadoopCluster cluster, String user, Path targets) {
      this.cluster = cluster;
      this.user = user;
      this.targets = targets;
      this.thread = new Thread(this::poll, "tenant-watch");
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    void stop() throws Exception {
      running = false;
      thread.join();
      if (failure != null) {
        throw failure;
      }
    }

    private void poll() {
      try {
        while (running) {
          once();
          Thread.sleep(150);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        failure = e;
      }
    }

    private void once() throws IOException {
      boolean[] holding = new boolean[3];
      boolean rackOneFull = true;
      long rackTwoLeastFree = Long.MAX_VALUE;
      List<String> lines = new ArrayList<>();
      long now = System.currentTimeMillis();
      for (ClusterNode worker : cluster.workers()) {
        Map<String, Double> metrics =
            Faults.metrics(cluster, worker, HadoopCluster.SERVER_METRICS_PORT);
        for (Map.Entry<String, Double> sample : metrics.entrySet()) {
          String name = sample.getKey();
          long chunks = sample.getValue().longValue();
          if (name.startsWith("sponge_server_task_chunks{task=\"") && chunks > 0) {
            String task = name.substring(name.indexOf('"') + 1, name.lastIndexOf('"'));
            mostChunks.merge(worker.host + " " + task, chunks, Math::max);
            holding[worker.rack] = true;
          }
        }
        long free = metrics.getOrDefault("sponge_server_pool_free_chunks", -1.0).longValue();
        leastFree.merge(worker.host, free, Math::min);
        if (worker.rack == 1) {
          rackOneFull &= free == 0;
        } else {
          rackTwoLeastFree = Math.min(rackTwoLeastFree, free);
        }
        Path pool = cluster.dir.resolve(Teardown.prefix() + worker.host + "-pool");
        for (PoolOwners.Held held : PoolOwners.read(PoolOwners.metadata(pool))) {
          String attempt = ownerAttempt(held.pid);
          if (attempt != null) {
            String line =
                String.join(
                    " ",
                    worker.host + ":" + HadoopCluster.SERVER_PORT,
                    Integer.toString(held.index),
                    Long.toString(held.generation),
                    attempt);
            lines.add(line);
            lastSeen.put(line, now);
          }
        }
      }
      if (holding[1] && holding[2]) {
        bothRacksAtOnce++;
      }
      if (rackOneFull && rackTwoLeastFree > 0 && rackTwoLeastFree != Long.MAX_VALUE) {
        rackOneFullWithRoomAcross++;
      }
      Path next = targets.resolveSibling(targets.getFileName() + ".next");
      Files.write(next, lines, StandardCharsets.UTF_8);
      Files.move(next, targets, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The attempt of process {@code pid} if it is a task of {@link #user}, else null. */
    private String ownerAttempt(long pid) {
      return owners.computeIfAbsent(
          pid,
          process ->
              user.equals(PoolOwners.environment(process, "USER"))
                  ? PoolOwners.attempt(process)
                  : null);
    }
  }
}
