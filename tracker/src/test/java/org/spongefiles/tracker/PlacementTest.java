package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.ChunkInfo;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.RackOrder;
import org.spongefiles.core.cluster.RackResolver;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.server.SpongeServer;
import org.spongefiles.testkit.RandomBytes;

/** Where the tracker sends chunks: only within the task's rack, spread over the rack's servers. */
@Timeout(120)
class PlacementTest {
  private static final int CHUNK = ClusterFixture.CHUNK;
  private TestingServer zookeeper;
  private ClusterFixture cluster;

  @BeforeEach
  void setUp() throws Exception {
    zookeeper = new TestingServer();
    cluster = new ClusterFixture(zookeeper.getConnectString());
  }

  @AfterEach
  void tearDown() throws Exception {
    cluster.close();
    zookeeper.close();
  }

  private static void awaitServers(MemoryTracker tracker, String rack, int count) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptionsInstanceOf(WireException.class)
        .until(() -> TrackerClient.freeList(tracker.endpoint(), rack).servers.size() == count);
  }

  @Test
  void aTasksRemoteChunksStayInItsRack() throws Exception {
    MemoryTracker tracker = cluster.tracker("tracker-1", "100ms");
    SpongeServer r1a = cluster.server("r1-a", "/r1", 8);
    SpongeServer r1b = cluster.server("r1-b", "/r1", 8);
    SpongeServer r2 = cluster.server("r2-a", "/r2", 64);
    awaitServers(tracker, "/r1", 2);
    awaitServers(tracker, "/r2", 1);
    try (SpongeTask task =
        SpongeTask.open(cluster.taskConf("task-node", "/r1", tracker.endpoint()), "attempt_rack")) {
      SpongeFile file = task.create("rack-local");
      byte[] digest;
      try (OutputStream out = file.output()) {
        digest = RandomBytes.write(out, 1, 24L * CHUNK);
      }
      long remote = file.chunks().stream().filter(c -> c.tier() == TierKind.REMOTE).count();
      assertThat(remote).as("both r1 servers filled").isEqualTo(16);
      assertThat(file.chunks().stream().filter(c -> c.tier() == TierKind.DISK).count())
          .as("then disk, never the other rack")
          .isEqualTo(8);
      assertThat(file.chunks())
          .filteredOn(c -> c.tier() == TierKind.REMOTE)
          .allMatch(
              c -> c.location().contains(r1a.endpoint()) || c.location().contains(r1b.endpoint()));
      assertThat(r2.pool().freeChunks()).isEqualTo(64);
      try (SpongeInputStream in = file.input()) {
        assertThat(RandomBytes.read(in, 2).sha256).isEqualTo(digest);
      }
    }
  }

  @Test
  void racksComeFromHadoopsTopologyMapping() throws Exception {
    Path table = Files.createTempFile("topology", ".table");
    try {
      Files.writeString(table, "node-1 /dc1/rack-7\nnode-2 /dc1/rack-9\n");
      Configuration conf = new Configuration(false);
      conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
      conf.set("net.topology.table.file.name", table.toString());
      ParsedConfig values = ConfigCheck.validate(conf, new ClusterOptions());
      assertThat(RackResolver.rackOf(values, conf, "node-1")).isEqualTo("/dc1/rack-7");
      assertThat(RackResolver.rackOf(values, conf, "node-2")).isEqualTo("/dc1/rack-9");
      assertThat(RackResolver.rackOf(values, conf, "node-3")).isEqualTo("/default-rack");
      conf.set("sponge.rack", "/explicit");
      ParsedConfig explicit = ConfigCheck.validate(conf, new ClusterOptions());
      assertThat(RackResolver.rackOf(explicit, conf, "node-1")).isEqualTo("/explicit");
    } finally {
      Files.deleteIfExists(table);
    }
  }

  @Test
  void concurrentTasksSpreadOverTheRack() throws Exception {
    MemoryTracker tracker = cluster.tracker("tracker-1", "100ms");
    List<SpongeServer> servers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      servers.add(cluster.server("node-" + i, "/r1", 64));
    }
    awaitServers(tracker, "/r1", 4);
    int tasks = 6;
    CountDownLatch written = new CountDownLatch(tasks);
    CountDownLatch measured = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(tasks);
    List<Future<?>> results = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      int task = t;
      results.add(
          pool.submit(
              () -> {
                try (SpongeTask spongeTask =
                    SpongeTask.open(
                        cluster.taskConf("task-" + task, "/r1", tracker.endpoint()),
                        "attempt_balance_" + task)) {
                  SpongeFile file = spongeTask.create("spread");
                  byte[] block = RandomBytes.array(task, CHUNK);
                  try (OutputStream out = file.output()) {
                    for (int c = 0; c < 30; c++) {
                      out.write(block);
                      Thread.sleep(20); // a spill takes a while: views refresh meanwhile
                    }
                  }
                  assertThat(file.chunks())
                      .extracting(ChunkInfo::tier)
                      .containsOnly(TierKind.REMOTE);
                  written.countDown();
                  measured.await(); // hold the chunks until the spread is measured
                } finally {
                  written.countDown();
                }
                return null;
              }));
    }
    try {
      assertThat(written.await(60, TimeUnit.SECONDS)).isTrue();
      for (Future<?> result : results) {
        if (result.isDone()) {
          result.get(); // a task that failed fails the test with its own error
        }
      }
      int[] used = servers.stream().mapToInt(s -> 64 - s.pool().freeChunks()).toArray();
      assertThat(Arrays.stream(used).sum()).isEqualTo(tasks * 30);
      assertThat(Arrays.stream(used).max().getAsInt())
          .as("no server is full while another is mostly empty: %s", Arrays.toString(used))
          .isLessThan(64);
      assertThat(Arrays.stream(used).min().getAsInt())
          .as(Arrays.toString(used))
          .isGreaterThan(64 / 4);
    } finally {
      measured.countDown();
      pool.shutdown();
    }
    for (Future<?> result : results) {
      result.get();
    }
  }

  private static int used(List<SpongeServer> servers) {
    return servers.stream().mapToInt(s -> 64 - s.pool().freeChunks()).sum();
  }

  @Test
  void theMostFreeServerComesFirstMostOftenAndNearlyFullOnesLast() {
    RackOrder policy = new RackOrder(0.05);
    List<FreeList.Entry> rack =
        List.of(
            entry("a:1", 100, 90),
            entry("b:1", 100, 30),
            entry("c:1", 100, 3),
            entry("e:1", 100, 0));
    SplittableRandom random = new SplittableRandom(1);
    int aFirst = 0;
    for (int i = 0; i < 1000; i++) {
      List<FreeList.Entry> order = policy.order(rack, random);
      assertThat(order).extracting(e -> e.endpoint).containsExactlyInAnyOrder("a:1", "b:1", "c:1");
      assertThat(order.get(2).endpoint).as("nearly full last").isEqualTo("c:1");
      if (order.get(0).endpoint.equals("a:1")) {
        aFirst++;
      }
    }
    // Weighted by free space 90:30, a leads about three times in four.
    assertThat(aFirst).isBetween(680, 820);
  }

  private static FreeList.Entry entry(String endpoint, int chunks, int free) {
    return new FreeList.Entry(endpoint, free, chunks, CHUNK);
  }
}
