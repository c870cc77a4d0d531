package org.spongefiles.server;

import java.net.InetAddress;
import java.util.function.LongPredicate;
import org.spongefiles.core.wire.Hello;

/**
 * Which node a HELLO's task is recorded on, which decides how its chunks are counted and when they
 * are reclaimed. The pool's host table names the node: this node is the empty key (chunks checked
 * by the lease file of a local process, no node quota); another node is its server's endpoint
 * (asked about its processes by the reclaim sweep); a peer whose claim cannot be checked is {@code
 * ?<address>}, whose chunks the sweep frees once the grace period passes, as for a node whose
 * server cannot be reached.
 *
 * <p>A claim to be on this node (naming this server's endpoint) is believed only from this host
 * ({@link ThisHost}), or when the lease it names is held right now in this node's lease directory
 * (a container with a network of its own, such as Docker's bridge, connects from an address that is
 * not the host's, but only a process of this node can lock a file of the node's tmpfs). Anyone can
 * name the endpoint, and from elsewhere it would escape the node quota and be checked against this
 * node's lease files as if it were a local process. A claim without a lease (0) cannot be checked
 * either.
 */
final class NodeClaims {
  private final String endpoint;
  private final ThisHost thisHost;
  private final LongPredicate leaseHeldHere;

  NodeClaims(String endpoint, ThisHost thisHost, LongPredicate leaseHeldHere) {
    this.endpoint = endpoint;
    this.thisHost = thisHost;
    this.leaseHeldHere = leaseHeldHere;
  }

  /** The node key of {@code hello} arriving from {@code source} ({@code peerHost} its text). */
  String nodeKey(Hello hello, InetAddress source, String peerHost) {
    boolean claimsThisNode = hello.livenessEndpoint.equals(endpoint);
    return nodeKey(
        hello,
        endpoint,
        claimsThisNode
            && (thisHost.isThisHost(source)
                || (hello.lease != 0 && leaseHeldHere.test(hello.lease))),
        peerHost);
  }

  /** The decision itself, given whether the peer was found to be a process of this node. */
  static String nodeKey(Hello hello, String endpoint, boolean onThisNode, String peerHost) {
    String claimed = hello.livenessEndpoint;
    boolean checkable = hello.lease != 0 && !claimed.isEmpty();
    if (checkable && claimed.equals(endpoint)) {
      return onThisNode ? "" : unchecked(peerHost);
    }
    return checkable ? claimed : unchecked(peerHost);
  }

  private static String unchecked(String peerHost) {
    return "?" + peerHost;
  }
}
