package org.spongefiles.server;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Caps the connections the server holds: in total and per source address. A connection is admitted
 * before anything is read from it, and released when it closes.
 */
final class ConnectionGate {
  /** Why a connection was not admitted, or ADMITTED. */
  enum Admission {
    ADMITTED,
    TOO_MANY_CONNECTIONS,
    TOO_MANY_FROM_ADDRESS
  }

  private final int maxTotal;
  private final int maxPerAddress;
  private final Map<InetAddress, Integer> byAddress = new HashMap<>();
  private int total;

  ConnectionGate(int maxTotal, int maxPerAddress) {
    this.maxTotal = maxTotal;
    this.maxPerAddress = maxPerAddress;
  }

  synchronized Admission admit(InetAddress address) {
    if (total >= maxTotal) {
      return Admission.TOO_MANY_CONNECTIONS;
    }
    int held = byAddress.getOrDefault(address, 0);
    if (held >= maxPerAddress) {
      return Admission.TOO_MANY_FROM_ADDRESS;
    }
    byAddress.put(address, held + 1);
    total++;
    return Admission.ADMITTED;
  }

  synchronized void release(InetAddress address) {
    total--;
    byAddress.computeIfPresent(address, (a, held) -> held > 1 ? held - 1 : null);
  }

  synchronized int total() {
    return total;
  }
}
