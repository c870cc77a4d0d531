package org.spongefiles.server.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.RelayedList;

/**
 * A relay letting go of its rack peers, as it does when the leader picks other relays or changes:
 * every connection closes. Closing each one runs its close listener at once on the loop, which used
 * to change the map of peers under the loop's iteration: the ConcurrentModificationException ended
 * the link's sampling, and the server never reported again.
 */
@Timeout(30)
class PeerRelayTest {
  private static final String SELF = "127.0.0.1:1";

  @Test
  void closingARelayWithSeveralPeersLetsGoOfEveryOne() throws Exception {
    NioEventLoopGroup group = new NioEventLoopGroup(1);
    List<ServerSocket> peers = new ArrayList<>();
    try {
      List<FreeList.Entry> entries = new ArrayList<>();
      entries.add(new FreeList.Entry(SELF, 8, 8, 1024));
      for (int i = 0; i < 3; i++) {
        ServerSocket peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        peers.add(peer);
        entries.add(new FreeList.Entry("127.0.0.1:" + peer.getLocalPort(), 8, 8, 1024));
      }
      EventLoop loop = group.next();
      LinkSettings settings =
          new LinkSettings(
              SELF,
              "/r1",
              new ClientIdentity("", 1, 0, 1, "sponge-server@test"),
              null,
              null,
              400,
              10_000,
              0.01,
              0.05,
              2000);
      PeerRelay relay = loop.submit(() -> new PeerRelay(settings, loop, () -> {})).get();
      RelayedList list =
          new RelayedList("tracker:1", 1, List.of(SELF), new FreeList(0, "/r1", entries));
      loop.submit(() -> relay.forward(list, SELF)).get();
      assertThat(loop.submit(relay::peers).get()).as("peers connected").isEqualTo(3);

      loop.submit(relay::close).get(5, TimeUnit.SECONDS);
      assertThat(loop.submit(relay::peers).get()).as("peers after close").isZero();
    } finally {
      for (ServerSocket peer : peers) {
        peer.close();
      }
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
