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
  final Counter reports;
  final Counter reportFrames;
  final Counter pushes;

  /** Duration of the leader's last tick (joining reports, pushing lists); written on its loop. */
  volatile long tickNanos;

  final Counter requests;
  final Counter refusedPeers;

  TrackerMetrics(MemoryTracker tracker) {
    JvmMetrics.builder().register(registry);
    reports =
        Counter.builder()
            .name("sponge_tracker_reports_total")
            .help("Free-space reports received from sponge servers as leader")
            .register(registry);
    reportFrames =
        Counter.builder()
            .name("sponge_tracker_report_frames_total")
            .help(
                "Frames the reports came in as leader, by kind: a server's own (report) or a"
                    + " relay's batch of its rack's (batch)")
            .labelNames("kind")
            .register(registry);
    reportFrames.labelValues("report").inc(0);
    reportFrames.labelValues("batch").inc(0);
    pushes =
        Counter.builder()
            .name("sponge_tracker_rack_pushes_total")
            .help("Rack lists pushed to the servers of a rack (one per rack and push)")
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
        .name("sponge_tracker_tick_seconds")
        .help("Duration of the leader's last tick: joining reports and pushing the changed racks")
        .callback(
            callback -> {
              if (tracker.isLeader()) {
                callback.call(tickNanos / 1e9);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_tracker_servers_seen")
        .help(
            "Registered servers that report to the leader (up), and registered ones that do not"
                + " (down)")
        .labelNames("state")
        .callback(
            callback -> {
              RackView view = tracker.view();
              if (view != null) {
                callback.call(view.reporting, "up");
                callback.call(Math.max(0, view.registered - view.reporting), "down");
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("sponge_tracker_free_bytes")
        .help("Free pool bytes of the servers that answered, by rack")
        .labelNames("rack")
        .callback(
            callback -> {
              RackView view = tracker.view();
              if (view != null) {
                for (Map.Entry<String, Long> rack : view.freeBytesByRack().entrySet()) {
                  callback.call(rack.getValue(), rack.getKey());
                }
              }
            })
        .register(registry);
  }
}
