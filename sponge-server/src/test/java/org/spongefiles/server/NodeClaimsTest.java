package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Path;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.core.pool.Lease;
import org.spongefiles.core.pool.LeaseDirectory;
import org.spongefiles.core.wire.Hello;

/**
 * Where a HELLO's task is recorded: on this node only when it names this server's endpoint, comes
 * from this host and gives a start time; otherwise on the node it names, or, when its claim cannot
 * be checked, on {@code ?<address>}, whose chunks expire after the grace period.
 */
class NodeClaimsTest {
  private static final String ENDPOINT = "127.0.0.1:7070";

  private static Hello hello(String endpoint, int pid, long start) {
    return new Hello(
        endpoint, pid, start, 1, "attempt_claim", new byte[0], new byte[32], new byte[0]);
  }

  @Test
  void aClaimToBeOnThisNodeIsBelievedOnlyFromThisHost() {
    Hello local = hello(ENDPOINT, 4242, 1_700_000_000_000L);
    assertThat(NodeClaims.nodeKey(local, ENDPOINT, true, "10.0.0.9")).isEmpty();
    assertThat(NodeClaims.nodeKey(local, ENDPOINT, false, "10.0.0.9")).isEqualTo("?10.0.0.9");
  }

  @Test
  void aClaimFromAnotherAddressIsBelievedWhileItsLeaseIsHeldOnThisNode(@TempDir Path pools)
      throws Exception {
    // A container on a bridge network: its connection comes from an address of its own.
    InetAddress container = InetAddress.getByName("192.0.2.7");
    LeaseDirectory leases = LeaseDirectory.beside(pools);
    NodeClaims claims = new NodeClaims(ENDPOINT, new ThisHost(), leases::isAlive);
    Lease lease = leases.acquire();
    Hello held =
        new Hello(
            ENDPOINT, 1, lease.id(), 1, "attempt_bridge", new byte[0], new byte[32], new byte[0]);
    Hello guessed =
        new Hello(
            ENDPOINT,
            1,
            lease.id() ^ 0x5a5a,
            1,
            "attempt_guess",
            new byte[0],
            new byte[32],
            new byte[0]);

    assertThat(claims.nodeKey(held, container, "192.0.2.7")).isEmpty();
    assertThat(claims.nodeKey(guessed, container, "192.0.2.7")).isEqualTo("?192.0.2.7");
    lease.close();
    assertThat(claims.nodeKey(held, container, "192.0.2.7")).isEqualTo("?192.0.2.7");
  }

  @Test
  void aClaimWithoutAStartTimeIsNeverCheckedByPid() {
    Hello pidOne = hello(ENDPOINT, 1, 0);
    assertThat(NodeClaims.nodeKey(pidOne, ENDPOINT, true, "127.0.0.2")).isEqualTo("?127.0.0.2");
    Hello elsewhere = hello("node-b:7070", 1, 0);
    assertThat(NodeClaims.nodeKey(elsewhere, ENDPOINT, false, "10.0.0.9")).isEqualTo("?10.0.0.9");
  }

  @Test
  void anotherNodeIsAskedAboutItsOwnTasksAndANamelessPeerExpires() {
    Hello remote = hello("node-b:7070", 4242, 1_700_000_000_000L);
    assertThat(NodeClaims.nodeKey(remote, ENDPOINT, false, "10.0.0.9")).isEqualTo("node-b:7070");
    Hello nameless = hello("", 4242, 1_700_000_000_000L);
    assertThat(NodeClaims.nodeKey(nameless, ENDPOINT, true, "127.0.0.1")).isEqualTo("?127.0.0.1");
  }

  @Test
  void thisHostIsLoopbackAndTheInterfaceAddressesNothingElse() throws Exception {
    ThisHost host = new ThisHost();
    assertThat(host.isThisHost(InetAddress.getByName("127.0.0.1"))).isTrue();
    assertThat(host.isThisHost(InetAddress.getByName("127.0.0.2"))).isTrue();
    assertThat(host.isThisHost(InetAddress.getByName("::1"))).isTrue();
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress address : Collections.list(nic.getInetAddresses())) {
        assertThat(host.isThisHost(address)).as("%s of %s", address, nic.getName()).isTrue();
      }
    }
    // TEST-NET-1 and -3 (RFC 5737): never a host's own address.
    assertThat(host.isThisHost(InetAddress.getByName("192.0.2.7"))).isFalse();
    assertThat(host.isThisHost(InetAddress.getByName("203.0.113.9"))).isFalse();
    assertThat(host.isThisHost(null)).isFalse();
  }

  @Test
  void anUnknownAddressRereadsTheInterfacesAtMostOncePerPeriod() throws Exception {
    AtomicLong now = new AtomicLong();
    int[] reads = new int[1];
    ThisHost host =
        new ThisHost(
            () -> now.get(),
            () -> {
              reads[0]++;
              return java.util.Set.of();
            });
    InetAddress stranger = InetAddress.getByName("192.0.2.7");
    for (int i = 0; i < 100; i++) {
      assertThat(host.isThisHost(stranger)).isFalse();
    }
    assertThat(reads[0]).isEqualTo(1);
    now.addAndGet(ThisHost.REFRESH_NANOS);
    assertThat(host.isThisHost(stranger)).isFalse();
    assertThat(reads[0]).isEqualTo(2);
  }
}
