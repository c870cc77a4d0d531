package org.spongefiles.daemon;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import org.spongefiles.core.config.ConfigException;

/** A daemon's Prometheus metrics served over HTTP. */
public final class MetricsEndpoint {
  private MetricsEndpoint() {}

  /**
   * Serves {@code registry} on {@code host}:{@code port}; the caller closes the server.
   *
   * @param portKey the option {@code port} was read from, which a failure names
   * @throws ConfigException naming {@code portKey} and the port when nothing can listen there
   */
  public static HTTPServer start(
      String host, int port, PrometheusRegistry registry, String portKey) {
    try {
      return HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
    } catch (IOException e) {
      throw new ConfigException(
          portKey,
          Integer.toString(port),
          "cannot serve metrics on " + host + ":" + port + ": " + e.getMessage());
    }
  }
}
