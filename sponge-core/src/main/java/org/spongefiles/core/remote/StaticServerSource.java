package org.spongefiles.core.remote;

import java.util.List;

/** The servers of {@code sponge.remote.servers}, in the order written. */
public final class StaticServerSource implements ServerSource {
  private final List<ServerAddress> servers;

  public StaticServerSource(List<ServerAddress> servers) {
    this.servers = List.copyOf(servers);
  }

  @Override
  public List<ServerAddress> candidates() {
    return servers;
  }

  @Override
  public String toString() {
    return "servers " + servers;
  }
}
