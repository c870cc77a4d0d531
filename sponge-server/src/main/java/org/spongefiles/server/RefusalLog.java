package org.spongefiles.server;

import io.prometheus.metrics.core.metrics.Counter;
import java.net.InetAddress;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.spongefiles.daemon.netty.TlsGate;

/**
 * Peers refused before they authenticated (over a connection cap, too slow to authenticate, a bad
 * or oversized frame, a failed proof, no TLS or a failed TLS handshake), counted by reason in
 * {@code sponge_server_refused_peers_total} and summed up in one log line per interval: a flood of
 * strangers costs a line a minute, not a line a frame.
 */
final class RefusalLog {
  /** Reasons, also the values of the metric's {@code reason} label. */
  static final String[] REASONS = {
    "max_connections",
    "max_connections_per_address",
    "handshake_timeout",
    "bad_frame",
    "auth_failed",
    TlsGate.NOT_TLS,
    TlsGate.TLS_HANDSHAKE
  };

  private static final int ADDRESSES_SHOWN = 3;

  private final Counter refused;
  private final Consumer<String> sink;
  private final Map<String, Integer> byReason = new TreeMap<>();
  private final Map<InetAddress, Integer> byAddress = new HashMap<>();
  private String lastDetail = "";

  RefusalLog(Counter refused, Consumer<String> sink) {
    this.refused = refused;
    this.sink = sink;
    for (String reason : REASONS) {
      refused.labelValues(reason).inc(0);
    }
  }

  /** Counts one refused peer; {@code detail} is kept for the summary (the last one shown). */
  void record(InetAddress address, String reason, String detail) {
    refused.labelValues(reason).inc();
    synchronized (this) {
      byReason.merge(reason, 1, Integer::sum);
      if (address != null) {
        byAddress.merge(address, 1, Integer::sum);
      }
      lastDetail = detail;
    }
  }

  /**
   * Logs the summary of the refusals since the last call, if there were any, and returns it (null
   * when there were none).
   */
  String flush() {
    String line;
    synchronized (this) {
      if (byReason.isEmpty()) {
        return null;
      }
      int total = byReason.values().stream().mapToInt(Integer::intValue).sum();
      String addresses =
          byAddress.entrySet().stream()
              .sorted(Map.Entry.<InetAddress, Integer>comparingByValue(Comparator.reverseOrder()))
              .limit(ADDRESSES_SHOWN)
              .map(e -> e.getKey().getHostAddress() + " x" + e.getValue())
              .collect(Collectors.joining(", "));
      line =
          "Refused "
              + total
              + " unauthenticated peer(s) "
              + byReason
              + " from "
              + byAddress.size()
              + " address(es) ("
              + addresses
              + "); last: "
              + lastDetail;
      byReason.clear();
      byAddress.clear();
    }
    sink.accept(line);
    return line;
  }
}
