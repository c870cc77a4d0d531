package org.spongefiles.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.ToLongFunction;
import org.spongefiles.core.pool.SharedPool;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.server.tracking.LeaderLink;

/**
 * The server's Prometheus metrics, in a registry of its own. Every counter and every label value is
 * present from the start, at zero.
 */
final class ServerMetrics {
  final PrometheusRegistry registry = new PrometheusRegistry();
  final Gauge connections;
  final Counter requests;
  final Counter errors;
  final Counter bytesWritten;
  final Counter bytesRead;
  final Counter reclaimed;
  final Counter authFailures;
  final Counter refusedPeers;
  final TaskNames taskNames = new TaskNames();
  private volatile LeaderLink tracking; // null while the server follows no tracker

  /** The requests a server serves. */
  static final Opcode[] REQUESTS = {
    Opcode.ALLOCATE,
    Opcode.WRITE,
    Opcode.READ,
    Opcode.FREE,
    Opcode.STATS,
    Opcode.LIVENESS,
    Opcode.RACK_RELAY,
    Opcode.REPORT
  };

  /** Direct memory of Netty's default allocator, the one the server's channels use. */
  static long nettyDirectBytes() {
    ByteBufAllocator allocator = ByteBufAllocator.DEFAULT;
    return allocator instanceof ByteBufAllocatorMetricProvider
        ? ((ByteBufAllocatorMetricProvider) allocator).metric().usedDirectMemory()
        : -1;
  }

  ServerMetrics(SharedPool pool) {
    connections =
        Gauge.builder()
            .name("sponge_server_connections")
            .help("Open client connections")
            .register(registry);
    requests =
        Counter.builder()
            .name("sponge_server_requests_total")
            .help("Requests of authenticated clients served, by opcode")
            .labelNames("op")
            .register(registry);
    errors =
        Counter.builder()
            .name("sponge_server_errors_total")
            .help("ERROR replies, by error code")
            .labelNames("code")
            .register(registry);
    bytesWritten =
        Counter.builder()
            .name("sponge_server_written_bytes_total")
            .help("Chunk bytes written into the pool for remote clients")
            .register(registry);
    bytesRead =
        Counter.builder()
            .name("sponge_server_read_bytes_total")
            .help("Chunk bytes sent to remote clients")
            .register(registry);
    reclaimed =
        Counter.builder()
            .name("sponge_server_reclaimed_chunks_total")
            .help("Chunks of dead owners freed, by owner kind (local or remote)")
            .labelNames("owner")
            .register(registry);
    // Both owner kinds exist from the start, so that dashboards show 0 rather than no data.
    reclaimed.labelValues("local");
    reclaimed.labelValues("remote");
    authFailures =
        Counter.builder()
            .name("sponge_server_auth_failures_total")
            .help("Connections that failed to prove the cluster secret")
            .register(registry);
    refusedPeers =
        Counter.builder()
            .name("sponge_server_refused_peers_total")
            .help("Connections closed before they authenticated, by reason")
            .labelNames("reason")
            .register(registry);
    for (Opcode opcode : REQUESTS) {
      requests.labelValues(opcode.name()).inc(0);
    }
    for (ErrorCode code : ErrorCode.values()) {
      errors.labelValues(code.name()).inc(0);
    }
    reclaimed.labelValues("local").inc(0);
    reclaimed.labelValues("remote").inc(0);
    JvmMetrics.builder().register(registry);
    GaugeWithCallback.builder()
        .name("sponge_server_netty_direct_bytes")
        .help("Direct memory held by the server's network buffers (Netty's allocator)")
        .callback(callback -> callback.call(nettyDirectBytes()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_server_pool_chunks")
        .help("Chunks in the node's pool")
        .callback(callback -> callback.call(pool.chunkCount()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_server_pool_free_chunks")
        .help("Free chunks in the node's pool")
        .callback(callback -> callback.call(pool.freeChunks()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_server_owned_chunks")
        .help("Chunks held by tasks of this node (local) and of other nodes (remote)")
        .labelNames("owner")
        .callback(
            callback -> {
              TaskHoldings holdings = TaskHoldings.of(pool.owners());
              callback.call(holdings.localChunks, "local");
              callback.call(holdings.remoteChunks, "remote");
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_server_task_chunks")
        .help("Chunks held by each of the " + TaskHoldings.TOP + " tasks holding the most")
        .labelNames("task")
        .callback(
            callback -> {
              TaskHoldings holdings = TaskHoldings.of(pool.owners());
              taskNames.retainOnly(holdings.chunksByTask.keySet());
              for (java.util.Map.Entry<Long, Integer> task : holdings.top()) {
                callback.call(task.getValue(), taskNames.name(task.getKey()));
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_server_pool_chunk_bytes")
        .help("Size of one chunk")
        .callback(callback -> callback.call(pool.chunkSize()))
        .register(registry);
    registerTracking();
  }

  /** From now on, the tracking metrics are {@code link}'s (before, they read 0). */
  void follow(LeaderLink link) {
    tracking = link;
  }

  /**
   * The server's side of the memory tracker: its link to the leader and, as a relay, its rack's.
   */
  private void registerTracking() {
    GaugeWithCallback.builder()
        .name("sponge_server_tracker_linked")
        .help("1 while this server holds a rack list from the leading tracker, else 0")
        .callback(
            callback -> {
              LeaderLink link = tracking;
              callback.call(link != null && link.isLinked() ? 1 : 0);
            })
        .register(registry);
    linkCounter(
        "sponge_server_tracker_reports_total",
        "This server's free-space reports to the leading tracker, by path: to the leader itself,"
            + " or through its rack's relay",
        "path",
        "leader",
        LeaderLink::reportsToLeader,
        "relay",
        LeaderLink::reportsViaRelay);
    linkCounter(
        "sponge_server_rack_lists_total",
        "Rack lists this server took, by source: the leader itself, or its rack's relay",
        "source",
        "leader",
        LeaderLink::listsFromLeader,
        "relay",
        LeaderLink::listsFromRelays);
    linkCounter(
        "sponge_server_relay_batches_total",
        "Batches of its rack's reports this server sent the leader as the rack's relay",
        LeaderLink::batchesSent);
    linkCounter(
        "sponge_server_relay_carried_reports_total",
        "Rack peers' reports this server carried to the leader in its batches, as relay",
        LeaderLink::reportsCarried);
  }

  /** A counter read from the server's link to the leader; 0 while it follows no tracker. */
  private void linkCounter(String name, String help, ToLongFunction<LeaderLink> count) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .callback(callback -> callback.call(count(count)))
        .register(registry);
  }

  /** A counter of two label values, each read from the server's link to the leader. */
  private void linkCounter(
      String name,
      String help,
      String label,
      String first,
      ToLongFunction<LeaderLink> firstCount,
      String second,
      ToLongFunction<LeaderLink> secondCount) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames(label)
        .callback(
            callback -> {
              callback.call(count(firstCount), first);
              callback.call(count(secondCount), second);
            })
        .register(registry);
  }

  private long count(ToLongFunction<LeaderLink> count) {
    LeaderLink link = tracking;
    return link == null ? 0 : count.applyAsLong(link);
  }
}
