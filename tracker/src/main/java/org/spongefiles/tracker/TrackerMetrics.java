package org.spongefiles.tracker;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import org.spongefiles.daemon.netty.TlsGate;

/** The tracker's Prometheus metrics, in a registry of its own. */
final class TrackerMetrics {
  final PrometheusRegistry registry = new PrometheusRegistry();
  final Counter rounds;
  final Counter requests;
  final Counter refusedPeers;

  TrackerMetrics(MemoryTracker tracker) {
    JvmMetrics.builder().register(registry);
    rounds =
        Counter.builder()
            .name("sponge_tracker_poll_rounds_total")
            .help("Poll rounds completed as leader")
            .register(registry);
    requests =
        Counter.builder()
            .name("sponge_tracker_free_list_requests_total")
            .help("Free lists asked for, by answer (ok, no_server_in_rack, not_leader)")
            .labelNames("answer")
            .register(registry);
    refusedPeers =
        Counter.builder()
            .name("sponge_tracker_refused_peers_total")
            .help("Peers refused before the handshake, by reason (not_tls, tls_handshake)")
            .labelNames("reason")
            .register(registry);
    refusedPeers.labelValues(TlsGate.NOT_TLS).inc(0);
    refusedPeers.labelValues(TlsGate.TLS_HANDSHAKE).inc(0);
    GaugeWithCallback.builder()
        .name("sponge_tracker_leader")
        .help("1 while this tracker is the leader")
        .callback(callback -> callback.call(tracker.isLeader() ? 1 : 0))
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_tracker_poll_round_seconds")
        .help("Duration of the last poll round")
        .callback(
            callback -> {
              ClusterView view = tracker.view();
              if (view != null) {
                callback.call(view.roundNanos / 1e9);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_tracker_view_age_seconds")
        .help("Age of the leader's view: time since its last completed poll round")
        .callback(
            callback -> {
              ClusterView view = tracker.view();
              if (view != null) {
                callback.call(view.ageMillis() / 1e3);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_tracker_servers_seen")
        .help("Registered servers in the last poll round, by state (up, down)")
        .labelNames("state")
        .callback(
            callback -> {
              ClusterView view = tracker.view();
              if (view != null) {
                callback.call(view.upCount(), "up");
                callback.call(view.servers.size() - view.upCount(), "down");
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_tracker_free_bytes")
        .help("Free pool bytes of the servers that answered, by rack")
        .labelNames("rack")
        .callback(
            callback -> {
              ClusterView view = tracker.view();
              if (view != null) {
                for (Map.Entry<String, Long> rack : view.freeBytesByRack().entrySet()) {
                  callback.call(rack.getValue(), rack.getKey());
                }
              }
            })
        .register(registry);
  }
}
