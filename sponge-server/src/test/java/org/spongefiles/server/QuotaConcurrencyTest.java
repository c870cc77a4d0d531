package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.pool.OwnerEntry;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.WireException;

/**
 * The per-task and per-node quotas hold at every moment while many connections of one session, and
 * several sessions of one node, allocate at once on a real server (four event-loop threads); and
 * refused allocations leak nothing: once every chunk is freed, the pool is whole and the session
 * gets its full quota again.
 */
@Timeout(120)
class QuotaConcurrencyTest {
  private static final int CHUNK = ServerFixture.CHUNK;
  private static final int POOL = 64;
  private static final int TASK_QUOTA = 8;
  private static final int NODE_QUOTA = 16;
  private static final int ROUNDS = 60;
  private static final String NODE = "127.0.0.1:1"; // another node, whose server is down

  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private SpongeServer server;
  private ExecutorService threads;

  @BeforeEach
  void setUp() throws Exception {
    threads = Executors.newCachedThreadPool();
    Configuration conf = fixture.serverConf("node-a", POOL);
    ServerOptions.QUOTA_PER_TASK.set(conf, (long) TASK_QUOTA * CHUNK);
    ServerOptions.QUOTA_PER_NODE.set(conf, (long) NODE_QUOTA * CHUNK);
    ServerOptions.THREADS.set(conf, 4);
    ServerOptions.RECLAIM_INTERVAL.set(
        conf, Duration.ofMillis(100)); // recounts race the allocations
    server = fixture.start(conf);
  }

  @AfterEach
  void tearDown() throws Exception {
    threads.shutdownNow();
    threads.awaitTermination(10, TimeUnit.SECONDS);
  }

  private static ClientIdentity task(int n) {
    return new ClientIdentity(
        NODE, 5000 + n, 1_700_000_000_000L + n, 900 + n, "attempt_quota_concurrency_" + n);
  }

  private RemoteConnection open(ClientIdentity identity, byte[] ticket) throws Exception {
    return fixture.connect(server, identity, ticket);
  }

  /** {@code perSession} connections in one session of each task. */
  private List<List<RemoteConnection>> sessions(int tasks, int perSession) throws Exception {
    List<List<RemoteConnection>> sessions = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      RemoteConnection first = open(task(t), new byte[0]);
      List<RemoteConnection> session = new ArrayList<>(List.of(first));
      for (int c = 1; c < perSession; c++) {
        session.add(open(task(t), first.ticket()));
      }
      sessions.add(session);
    }
    return sessions;
  }

  /** The most chunks any task, and all of the node, held in the pool at one sample. */
  private static final class Sampler implements Runnable {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicInteger maxPerTask = new AtomicInteger();
    final AtomicInteger maxForNode = new AtomicInteger();
    final AtomicInteger samples = new AtomicInteger();
    private final SpongeServer server;

    Sampler(SpongeServer server) {
      this.server = server;
    }

    @Override
    public void run() {
      while (!stop.get()) {
        List<OwnerEntry> owners = stableOwners();
        if (owners == null) {
          continue;
        }
        Map<Long, Integer> byTask = new HashMap<>();
        int node = 0;
        for (OwnerEntry entry : owners) {
          byTask.merge(entry.owner().task(), 1, Integer::sum);
          node++;
        }
        for (int held : byTask.values()) {
          maxPerTask.accumulateAndGet(held, Math::max);
        }
        maxForNode.accumulateAndGet(node, Math::max);
        samples.incrementAndGet();
      }
    }

    /**
     * The owner entries as they all were at one instant, or null. One scan of the table is not a
     * snapshot (a chunk freed after the scan passed it and another allocated before the scan
     * reaches it are both counted); two equal scans in a row are, since every change of owner also
     * changes the entry's generation, so each entry held still from the end of the first scan to
     * the second.
     */
    private List<OwnerEntry> stableOwners() {
      List<OwnerEntry> first = server.pool().owners();
      for (int tries = 0; tries < 10; tries++) {
        List<OwnerEntry> second = server.pool().owners();
        if (versions(second).equals(versions(first))) {
          return first;
        }
        first = second;
      }
      return null;
    }

    private static List<String> versions(List<OwnerEntry> entries) {
      List<String> versions = new ArrayList<>(entries.size());
      for (OwnerEntry entry : entries) {
        versions.add(entry.chunk() + ":" + entry.generation());
      }
      return versions;
    }
  }

  /** What the clients saw: chunks granted and not yet freed, per session and for the node. */
  private static final class Granted {
    final AtomicInteger node = new AtomicInteger();
    final AtomicInteger maxNode = new AtomicInteger();
    final AtomicInteger maxSession = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();
    final AtomicInteger granted = new AtomicInteger();
  }

  /**
   * Every connection allocates 3 chunks and frees them, {@link #ROUNDS} times, all connections
   * released together each round.
   */
  private Granted hammer(List<List<RemoteConnection>> sessions) throws Exception {
    int total = sessions.stream().mapToInt(List::size).sum();
    CyclicBarrier together = new CyclicBarrier(total);
    Granted seen = new Granted();
    List<Future<?>> running = new ArrayList<>();
    for (List<RemoteConnection> session : sessions) {
      AtomicInteger held = new AtomicInteger();
      for (RemoteConnection connection : session) {
        running.add(
            threads.submit(
                () -> {
                  for (int round = 0; round < ROUNDS; round++) {
                    together.await(30, TimeUnit.SECONDS);
                    List<ChunkHandle> chunks = List.of();
                    try {
                      chunks = connection.allocate(3);
                    } catch (WireException e) {
                      assertThat(e.code()).isEqualTo(ErrorCode.QUOTA_EXCEEDED);
                      seen.refused.incrementAndGet();
                    }
                    // Counted after the server granted and before it frees: never more than
                    // the server holds at that moment.
                    seen.granted.addAndGet(chunks.size());
                    seen.maxSession.accumulateAndGet(held.addAndGet(chunks.size()), Math::max);
                    seen.maxNode.accumulateAndGet(seen.node.addAndGet(chunks.size()), Math::max);
                    Thread.yield();
                    held.addAndGet(-chunks.size());
                    seen.node.addAndGet(-chunks.size());
                    if (!chunks.isEmpty()) {
                      assertThat(connection.free(chunks)).isEqualTo(chunks.size());
                    }
                  }
                  return null;
                }));
      }
    }
    for (Future<?> future : running) {
      future.get(100, TimeUnit.SECONDS);
    }
    return seen;
  }

  private Granted hammerSampled(List<List<RemoteConnection>> sessions, Sampler sampler)
      throws Exception {
    Future<?> sampling = threads.submit(sampler);
    try {
      return hammer(sessions);
    } finally {
      sampler.stop.set(true);
      sampling.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void manyConnectionsOfOneSessionNeverHoldMoreThanTheTaskQuota() throws Exception {
    List<List<RemoteConnection>> sessions = sessions(1, 8);
    Sampler sampler = new Sampler(server);

    Granted seen = hammerSampled(sessions, sampler);

    assertThat(seen.maxSession.get())
        .as("chunks the session held at once")
        .isBetween(3, TASK_QUOTA);
    assertThat(sampler.maxPerTask.get()).isLessThanOrEqualTo(TASK_QUOTA);
    assertThat(sampler.samples.get()).isPositive();
    assertThat(seen.refused.get()).as("ALLOCATEs refused over quota").isPositive();
    assertNothingLeaked(sessions.get(0).get(0));
  }

  @Test
  void severalSessionsOfOneNodeNeverHoldMoreThanTheNodeQuota() throws Exception {
    List<List<RemoteConnection>> sessions = sessions(4, 2);
    Sampler sampler = new Sampler(server);

    Granted seen = hammerSampled(sessions, sampler);

    assertThat(seen.maxNode.get()).as("chunks the node held at once").isBetween(3, NODE_QUOTA);
    assertThat(seen.maxSession.get()).isLessThanOrEqualTo(TASK_QUOTA);
    assertThat(sampler.maxForNode.get()).isLessThanOrEqualTo(NODE_QUOTA);
    assertThat(sampler.maxPerTask.get()).isLessThanOrEqualTo(TASK_QUOTA);
    assertThat(seen.refused.get()).as("ALLOCATEs refused over quota").isPositive();
    for (List<RemoteConnection> session : sessions) {
      assertNothingLeaked(session.get(0));
    }
  }

  /** Every chunk is back, and the session gets exactly its quota again: no reservation stuck. */
  private void assertNothingLeaked(RemoteConnection connection) throws Exception {
    assertThat(server.pool().freeChunks()).isEqualTo(POOL);
    List<ChunkHandle> again = connection.allocate(TASK_QUOTA + 5);
    assertThat(again).hasSize(TASK_QUOTA);
    assertThat(connection.free(again)).isEqualTo(TASK_QUOTA);
    assertThat(server.pool().freeChunks()).isEqualTo(POOL);
  }
}
