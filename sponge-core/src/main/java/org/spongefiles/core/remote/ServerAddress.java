package org.spongefiles.core.remote;

import java.net.InetSocketAddress;
import java.util.Objects;

/** A sponge server's {@code host:port}. */
public final class ServerAddress {
  private final String host;
  private final int port;

  public ServerAddress(String host, int port) {
    this.host = Objects.requireNonNull(host, "host cannot be null");
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException("port : " + port + " (expected: 1 to 65535)");
    }
    this.port = port;
  }

  /**
   * Parses {@code host:port}.
   *
   * @throws IllegalArgumentException with the reason when the text is not an address
   */
  public static ServerAddress parse(String text) {
    String trimmed = text.trim();
    int colon = trimmed.lastIndexOf(':');
    if (colon <= 0 || colon == trimmed.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' is not host:port");
    }
    int port;
    try {
      port = Integer.parseInt(trimmed.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' has no numeric port");
    }
    return new ServerAddress(trimmed.substring(0, colon), port);
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public InetSocketAddress socketAddress() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ServerAddress
        && ((ServerAddress) o).host.equals(host)
        && ((ServerAddress) o).port == port;
  }

  @Override
  public int hashCode() {
    return host.hashCode() * 31 + port;
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
