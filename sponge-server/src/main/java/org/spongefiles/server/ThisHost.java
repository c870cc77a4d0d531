package org.spongefiles.server;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Whether a connection's source address is this host, so that its peer is a process of this node.
 *
 * <p>What counts: any loopback address (all of 127.0.0.0/8 and ::1) and every address of this
 * host's network interfaces. Neither can come from another machine over TCP: Linux drops a packet
 * arriving on a real interface whose source is a loopback address or one of the host's own
 * addresses (a "martian source", unless {@code accept_local} is set, which no sponge node needs),
 * and a spoofed source cannot complete the handshake, whose SYN-ACK goes to the real owner of the
 * address. Loopback alone would not do: a task reaches its node's server by the server's endpoint,
 * usually a name that resolves to an interface address, and the kernel then picks that address as
 * the source. The interface list is read again when an address is not in it, at most once per
 * {@link #REFRESH_NANOS}, so an address added after start is found and a stranger cannot make every
 * HELLO enumerate the interfaces.
 */
final class ThisHost {
  static final long REFRESH_NANOS = 10_000_000_000L;

  private final LongSupplier clock;
  private final Supplier<Set<InetAddress>> interfaces;
  private Set<InetAddress> addresses = Set.of();
  private long readAt;
  private boolean read;

  ThisHost() {
    this(System::nanoTime, ThisHost::interfaceAddresses);
  }

  /** With a clock (nanoseconds) and a reader of the interface addresses, for tests. */
  ThisHost(LongSupplier clock, Supplier<Set<InetAddress>> interfaces) {
    this.clock = clock;
    this.interfaces = interfaces;
  }

  /** True when {@code source} (null for a non-IP channel) is this host. */
  synchronized boolean isThisHost(InetAddress source) {
    if (source == null) {
      return false;
    }
    if (source.isLoopbackAddress()) {
      return true;
    }
    if (addresses.contains(source)) {
      return true;
    }
    long now = clock.getAsLong();
    if (!read || now - readAt >= REFRESH_NANOS) {
      addresses = interfaces.get();
      readAt = now;
      read = true;
      return addresses.contains(source);
    }
    return false;
  }

  private static Set<InetAddress> interfaceAddresses() {
    Set<InetAddress> found = new HashSet<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        found.addAll(Collections.list(nic.getInetAddresses()));
      }
    } catch (SocketException e) {
      // Unreadable: only loopback counts as this host until the next read succeeds.
    }
    return Set.copyOf(found);
  }
}
