package org.spongefiles.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.emulator.cluster.ClusterNode;
import org.spongefiles.emulator.cluster.ClusterSettings;
import org.spongefiles.emulator.cluster.HadoopCluster;
import org.spongefiles.it.ReadmeMapredSite;
import org.spongefiles.testkit.data.NumbersGenerator;
import org.spongefiles.workloads.median.MedianReference;

/**
 * The tarball on an emulated two-rack Hadoop cluster ({@link HadoopCluster}: real HDFS and YARN
 * daemons in network namespaces, the distribution's scripts on every node), smoke size: the median
 * job submitted through Hadoop's client on the master, stock and then ours (the README's
 * mapred-site keys, the tarball's task jar on mapreduce.application.classpath). Both answers equal
 * the generator's and the stock reducers spill. Rack 1's first node runs every reducer in a pool
 * too small for the shuffle, its second node runs maps only, rack 2 has pools with room and no
 * reducer: ours borrow memory on the other server of their rack, then go down the chain to disk,
 * never across to rack 2. That is checked from the servers' side: every sponge server's own
 * metrics, polled while the job runs, name the tasks it holds chunks for (each in the server's
 * rack), its free chunks (rack 1's ran out, rack 2's never fewer than its pool) and its local
 * owners' chunks (rack 1's pools used by their own nodes' reducers), and after the job count the
 * bytes each stored for remote clients (the job's remote bytes, all on rack 1); {@code bin/sponge
 * status --json} on a worker shows every server in its script-given rack and every chunk given
 * back. Then the cluster is torn down and nothing of it may be left. Needs root (netns, tmpfs
 * mounts); skips naming what is missing otherwise.
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class ClusterSmokeTest {
  private static final long NUMBERS = 2_000_000;

  /** Rack 1's node that runs the application master and both reducers. */
  private static final String REDUCERS = "rack1-node1";

  /** Rack 1's node that runs maps only: the reducers' remote memory. */
  private static final String BORROWED = "rack1-node2";

  private static final Pattern TASK_CHUNKS =
      Pattern.compile("(?m)^sponge_server_task_chunks\\{task=\"([^\"]+)\"\\} ([0-9.E]+)");

  private static final Pattern POOL_CHUNKS =
      Pattern.compile("(?m)^sponge_server_pool_chunks ([0-9.E]+)");
  private static final Pattern WRITTEN_BYTES =
      Pattern.compile("(?m)^sponge_server_written_bytes_total ([0-9.E]+)");
  private static final Pattern LOCAL_CHUNKS =
      Pattern.compile("(?m)^sponge_server_owned_chunks\\{owner=\"local\"\\} ([0-9.E]+)");
  private static final Pattern FREE_CHUNKS =
      Pattern.compile("(?m)^sponge_server_pool_free_chunks ([0-9.E]+)");
  private static final Pattern PEER_REPORTS =
      Pattern.compile("(?m)^sponge_server_requests_total\\{op=\"REPORT\"\\} ([0-9.E]+)");
  private static final Pattern RELAYED_LISTS =
      Pattern.compile("(?m)^sponge_server_requests_total\\{op=\"RACK_RELAY\"\\} ([0-9.E]+)");

  @TempDir Path work;

  @Test
  void medianJobStockAndOursOnTwoRacksAgreeAndChunksNeverLeaveTheirRack() throws Exception {
    Set<String> tmpBefore = ClusterLeftovers.begin();

    Path input = work.resolve("input");
    NumbersGenerator numbers = new NumbersGenerator(NUMBERS, 4, NumbersGenerator.Shape.SKEWED, 28);
    numbers.write(input);
    long[] counts = new long[2];
    String expected = MedianReference.output(numbers, counts);

    Map<String, String> readme = ReadmeMapredSite.properties();
    assertThat(readme)
        .containsKeys(
            "sponge.tracker.addresses",
            "sponge.auth.secret.file",
            "sponge.pool.size",
            "sponge.rack");
    // Rack 1's first node runs the application master and both reducers, whose shuffle overfills
    // its 4 MiB pool; rack 1's second node fits a map but no reducer, so its 4 MiB pool is theirs
    // to borrow (were the reducers on both nodes, each could fill its own pool before asking for
    // the other's, and none would be borrowed). Rack 2's NodeManagers fit a map but no reducer,
    // and its 64 MiB pools stay free.
    ClusterSettings settings =
        ClusterJob.smokeCluster()
            .withRack(1, 4L << 20, 3072)
            .withNodeManager(BORROWED, 320)
            .withRack(2, 64L << 20, 320);
    Path runDir;
    List<String> namespaces;
    long started = System.nanoTime();
    try (HadoopCluster cluster = HadoopCluster.start(settings)) {
      System.out.printf(
          "cluster up in %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
      runDir = cluster.dir;
      namespaces = cluster.network().namespaces();

      ClusterJob stock = ClusterJob.submit(cluster, MedianClient.STOCK, input, counts, work);
      assertThat(stock.output).as("stock answer").isEqualTo(expected);
      assertThat(stock.counter("tasks", "SPILLED_RECORDS"))
          .as("the stock reducers spill: more records spilled than the maps output")
          .isGreaterThan(stock.counter("tasks", "MAP_OUTPUT_RECORDS"));
      assertThat(stock.counters.keySet()).noneMatch(key -> key.startsWith("SpongeFiles "));

      Holdings holdings = new Holdings(cluster);
      holdings.start();
      ClusterJob ours;
      try {
        ours = ClusterJob.submit(cluster, MedianClient.OURS, input, counts, work);
      } finally {
        holdings.stop();
      }
      System.out.println("our job's counters: " + new TreeMap<>(ours.counters));
      System.out.println("our job's attempts: " + new TreeMap<>(ours.attempts));
      assertThat(ours.output).as("our answer").isEqualTo(expected);
      // Every task found its rack, the trackers and the secret; a reducer that asked the tracker
      // while both of rack 1's servers were full was told of none with room
      // (REMOTE_UNAVAILABLE_NO_SERVER_IN_RACK), and nothing else may be missing.
      assertThat(ours.counters)
          .allSatisfy(
              (key, value) -> {
                if (key.startsWith("SpongeFiles REMOTE_UNAVAILABLE_")) {
                  assertThat(key).as("%s=%d", key, value).endsWith("_NO_SERVER_IN_RACK");
                }
              });
      assertThat(ours.counter("SpongeFiles", "POOL_BYTES_WRITTEN")).isPositive();
      assertThat(ours.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN")).isPositive();
      assertThat(ours.counter("SpongeFiles", "REMOTE_BYTES_READ"))
          .isEqualTo(ours.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN"));

      Map<String, ClusterNode> byHost = new HashMap<>();
      cluster.workers().forEach(node -> byHost.put(node.host, node));
      List<String> reducers =
          ours.attempts.entrySet().stream()
              .filter(attempt -> attempt.getKey().contains("_r_"))
              .map(attempt -> attempt.getValue())
              .collect(Collectors.toList());
      assertThat(reducers).as("hosts of the reduce attempts").containsOnly(REDUCERS).hasSize(2);
      // Rack 1's memory ran out (each of its servers was full at some poll) and chunks went down
      // the chain to disk, while rack 2's servers had all their memory free the whole time.
      assertThat(ours.counter("SpongeFiles", "DISK_BYTES_WRITTEN")).isPositive();
      for (ClusterNode worker : cluster.workers()) {
        assertThat(holdings.leastFree.get(worker.host))
            .as("least free chunks seen on %s", worker)
            .isEqualTo(worker.rack == 1 ? 0L : holdings.chunks.get(worker.host));
      }

      // The reducers spilled into their own node's pool (its server counts local owners), not
      // into another pool their configuration could have named.
      for (ClusterNode worker : cluster.workers()) {
        long local = holdings.mostLocal.getOrDefault(worker.host, 0L);
        if (worker.host.equals(REDUCERS)) {
          assertThat(local).as("chunks of local tasks in the pool of %s", worker).isPositive();
        } else {
          assertThat(local).as("chunks of local tasks in the pool of %s", worker).isZero();
        }
      }

      // The servers' own word: every task they hold chunks for runs in their rack.
      for (Map.Entry<String, Set<String>> server : holdings.tasksByServer.entrySet()) {
        ClusterNode holder = byHost.get(server.getKey());
        for (String task : server.getValue()) {
          String host = ours.attempts.get(task);
          if (host == null) {
            // Known by hash only: a task that never connected to this server, so one that wrote
            // this node's pool directly, a task of this node.
            continue;
          }
          assertThat(byHost.get(host).rack)
              .as("rack of %s (on %s) holding chunks on %s", task, host, holder)
              .isEqualTo(holder.rack);
        }
      }
      System.out.printf(
          "cluster-median-smoke ratio=%.3f stock_ms=%d ours_ms=%d remote_bytes=%d"
              + " pool_bytes=%d disk_bytes=%d holdings=%s least_free=%s most_local=%s%n",
          ours.elapsedMillis / (double) stock.elapsedMillis,
          stock.elapsedMillis,
          ours.elapsedMillis,
          ours.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN"),
          ours.counter("SpongeFiles", "POOL_BYTES_WRITTEN"),
          ours.counter("SpongeFiles", "DISK_BYTES_WRITTEN"),
          holdings.tasksByServer,
          holdings.leastFree,
          holdings.mostLocal);
      // bin/sponge status on a worker, as an operator checks the rack: every server, in the rack
      // the topology script gives its host, and every chunk of the job given back.
      JsonNode status = new ObjectMapper().readTree(cluster.spongeStatus(cluster.workers().get(0)));
      Map<String, String> racks = new TreeMap<>();
      for (JsonNode server : status.get("servers")) {
        racks.put(server.get("address").asText(), server.get("rack").asText());
        assertThat(server.get("usedBytes").asLong()).as("%s", server).isZero();
      }
      Map<String, String> expectedRacks = new TreeMap<>();
      cluster
          .workers()
          .forEach(
              worker ->
                  expectedRacks.put(
                      worker.host + ":" + HadoopCluster.SERVER_PORT, worker.rackName()));
      assertThat(racks).isEqualTo(expectedRacks);

      // The servers' own count of what they stored for remote clients: every remote byte of the
      // job is on the reducers' rack neighbour, none anywhere else. Across the nodes' network, each
      // rack's two servers forwarded lists to each other, and one carried the other's reports.
      Map<String, Long> peerReports = new TreeMap<>();
      for (ClusterNode worker : cluster.workers()) {
        String metrics =
            cluster.fetch(
                "http://" + worker.host + ":" + HadoopCluster.SERVER_METRICS_PORT + "/metrics");
        peerReports.merge(worker.rackName(), count(PEER_REPORTS, metrics, worker), Long::sum);
        assertThat(count(RELAYED_LISTS, metrics, worker))
            .as("rack lists a relay forwarded to %s", worker)
            .isPositive();
        Matcher written = WRITTEN_BYTES.matcher(metrics);
        assertThat(written.find()).as("written bytes in the metrics of %s", worker).isTrue();
        assertThat((long) Double.parseDouble(written.group(1)))
            .as("bytes stored for remote clients on %s", worker)
            .isEqualTo(
                worker.host.equals(BORROWED)
                    ? ours.counter("SpongeFiles", "REMOTE_BYTES_WRITTEN")
                    : 0L);
      }
      assertThat(peerReports)
          .as("reports a rack's relay took from its neighbour, by rack")
          .hasSize(expectedRacks.values().stream().collect(Collectors.toSet()).size())
          .allSatisfy((rack, reports) -> assertThat(reports).as("%s", rack).isPositive());
    }

    // Nothing of the cluster is left: namespaces, /etc/netns entries, mounts, processes, files.
    ClusterLeftovers.assertNone(runDir, namespaces, tmpBefore);
  }

  private static long count(Pattern counter, String metrics, ClusterNode worker) {
    Matcher matcher = counter.matcher(metrics);
    assertThat(matcher.find()).as("%s in the metrics of %s", counter, worker).isTrue();
    return (long) Double.parseDouble(matcher.group(1));
  }

  /**
   * Polls every worker's sponge server metrics from the master while a job runs: which tasks hold
   * chunks on which server ({@code sponge_server_task_chunks}, the server's own count).
   */
  static final class Holdings {
    final Map<String, Set<String>> tasksByServer = new ConcurrentHashMap<>();
    final Map<String, Long> chunks = new ConcurrentHashMap<>();
    final Map<String, Long> leastFree = new ConcurrentHashMap<>();
    final Map<String, Long> mostLocal = new ConcurrentHashMap<>();
    private final HadoopCluster cluster;
    private final Thread poller;
    private volatile boolean running = true;
    private volatile IOException failure;

    Holdings(HadoopCluster cluster) {
      this.cluster = cluster;
      this.poller = new Thread(this::poll, "holdings");
      poller.setDaemon(true);
    }

    void start() {
      poller.start();
    }

    private void poll() {
      while (running) {
        try {
          for (ClusterNode worker : cluster.workers()) {
            String metrics =
                cluster.fetch(
                    "http://" + worker.host + ":" + HadoopCluster.SERVER_METRICS_PORT + "/metrics");
            Matcher total = POOL_CHUNKS.matcher(metrics);
            Matcher free = FREE_CHUNKS.matcher(metrics);
            if (total.find() && free.find()) {
              chunks.put(worker.host, (long) Double.parseDouble(total.group(1)));
              leastFree.merge(worker.host, (long) Double.parseDouble(free.group(1)), Math::min);
            }
            Matcher local = LOCAL_CHUNKS.matcher(metrics);
            if (local.find()) {
              mostLocal.merge(worker.host, (long) Double.parseDouble(local.group(1)), Math::max);
            }
            Matcher matcher = TASK_CHUNKS.matcher(metrics);
            while (matcher.find()) {
              if (Double.parseDouble(matcher.group(2)) > 0) {
                tasksByServer
                    .computeIfAbsent(worker.host, host -> ConcurrentHashMap.newKeySet())
                    .add(matcher.group(1));
              }
            }
          }
          Thread.sleep(200);
        } catch (IOException e) {
          failure = e;
          return;
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    void stop() throws IOException, InterruptedException {
      running = false;
      poller.join();
      if (failure != null) {
        throw failure;
      }
    }
  }
}
