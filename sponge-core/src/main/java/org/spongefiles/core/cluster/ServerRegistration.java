package org.spongefiles.core.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Properties;
import org.spongefiles.core.remote.ServerAddress;

/** What a sponge server publishes about itself in ZooKeeper. */
public final class ServerRegistration {
  private final ServerAddress address;
  private final String rack;
  private final int chunks;
  private final int chunkSize;
  private final int metricsPort;

  public ServerRegistration(ServerAddress address, String rack, int chunks, int chunkSize) {
    this(address, rack, chunks, chunkSize, -1);
  }

  /**
   * @param metricsPort the port of the server's Prometheus endpoint on its address's host, -1 when
   *     it serves none (what {@code bin/sponge status} scrapes)
   */
  public ServerRegistration(
      ServerAddress address, String rack, int chunks, int chunkSize, int metricsPort) {
    this.address = Objects.requireNonNull(address, "address cannot be null");
    this.rack = Objects.requireNonNull(rack, "rack cannot be null");
    this.chunks = chunks;
    this.chunkSize = chunkSize;
    this.metricsPort = metricsPort;
  }

  public ServerAddress address() {
    return address;
  }

  public String rack() {
    return rack;
  }

  public int chunks() {
    return chunks;
  }

  public int chunkSize() {
    return chunkSize;
  }

  /** The port of the server's metrics endpoint, -1 when it has none or did not publish it. */
  public int metricsPort() {
    return metricsPort;
  }

  /** The node's data: {@code key=value} lines, readable with any ZooKeeper tool. */
  public byte[] encode() {
    return ("address="
            + address
            + "\nrack="
            + rack
            + "\nchunks="
            + chunks
            + "\nchunkSize="
            + chunkSize
            + "\nmetricsPort="
            + metricsPort
            + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Decodes a node's data. {@code metricsPort} is optional (servers of earlier versions did not
   * publish it).
   *
   * @throws IllegalArgumentException naming the problem when the data is not a registration
   */
  public static ServerRegistration decode(byte[] data) {
    Properties properties = new Properties();
    try {
      properties.load(new java.io.StringReader(new String(data, StandardCharsets.UTF_8)));
      return new ServerRegistration(
          ServerAddress.parse(required(properties, "address")),
          required(properties, "rack"),
          Integer.parseInt(required(properties, "chunks")),
          Integer.parseInt(required(properties, "chunkSize")),
          Integer.parseInt(properties.getProperty("metricsPort", "-1")));
    } catch (java.io.IOException | NumberFormatException e) {
      throw new IllegalArgumentException("not a server registration: " + e.getMessage(), e);
    }
  }

  private static String required(Properties properties, String key) {
    String value = properties.getProperty(key);
    if (value == null) {
      throw new IllegalArgumentException("no " + key);
    }
    return value;
  }

  @Override
  public String toString() {
    return address + " (rack " + rack + ", " + chunks + " chunks of " + chunkSize + " bytes)";
  }
}
