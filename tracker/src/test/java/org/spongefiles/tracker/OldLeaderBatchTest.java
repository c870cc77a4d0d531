package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.cluster.ClusterOptions;
import org.spongefiles.core.cluster.ZooKeeperClients;
import org.spongefiles.core.cluster.ZooKeeperSettings;
import org.spongefiles.core.config.ConfigCheck;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.FreeList;
import org.spongefiles.core.wire.FreeReport;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.RelayedList;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.daemon.netty.FrameDecoder;
import org.spongefiles.daemon.netty.Handshake;
import org.spongefiles.daemon.netty.InboundFrame;
import org.spongefiles.daemon.netty.RequestHandler;
import org.spongefiles.daemon.netty.Responses;
import org.spongefiles.server.SpongeServer;

/**
 * Real sponge servers under a stand-in leader. One of the release before batches (relays, but no
 * REPORTS) refuses a relay's batch as an unknown opcode and closes the connection, as that
 * release's decoder does: each server sends it at most one batch, and a change on a rack peer still
 * reaches it, as the peer's own report, within seconds. One that takes batches and drops a relay's
 * connection gets the relay's own report first on the new one (a batch first would count for
 * nobody: the leader knows a connection's servers by their own reports).
 */
@Timeout(60)
class OldLeaderBatchTest {

  @Test
  void aLeaderThatRefusesBatchesGetsAtMostOnePerServerAndThePeersOwnReports() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString());
        StandInLeader leader = new StandInLeader(false)) {
      elect(cluster, leader);

      List<SpongeServer> rack = new ArrayList<>();
      for (String node : List.of("old-a", "old-b", "old-c")) {
        Configuration conf = cluster.serverConf(node, "/r1", 32);
        conf.set("sponge.tracker.report.keepalive", "200ms");
        rack.add(cluster.add(SpongeServer.start(conf)));
      }
      Awaitility.await()
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(leader.refusedBatches.get()).isPositive());
      // Keepalives keep every server reporting; give the relays time to send more batches.
      Thread.sleep(1500);
      // A refused relay reconnects, and so becomes the rack's newest server: the next one relays.
      assertThat(leader.refusedBatches.get())
          .as("batches the old leader refused (at most one per server)")
          .isBetween(1, rack.size());

      SpongeServer peer = rack.get(2);
      try (RemoteConnection borrower =
          RemoteConnection.open(
              ServerAddress.parse(peer.endpoint()),
              new ClientIdentity("", 999, 0, 5, "attempt_borrower"),
              null,
              Duration.ofSeconds(2),
              Duration.ofSeconds(5))) {
        borrower.allocate(4);
        Awaitility.await()
            .atMost(Duration.ofSeconds(5))
            .untilAsserted(() -> assertThat(leader.lastFree(peer.endpoint())).isEqualTo(32 - 4));
      }
      assertThat(leader.refusedBatches.get()).isBetween(1, rack.size());
    }
  }

  @Test
  void aRelayReconnectingToTheSameLeaderSendsItsOwnReportFirst() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString());
        StandInLeader leader = new StandInLeader(true)) {
      elect(cluster, leader);
      for (String node : List.of("re-a", "re-b", "re-c", "re-d")) {
        Configuration conf = cluster.serverConf(node, "/r1", 32);
        // The shipped interval, so a relay nearly always holds peers' reports for its next batch.
        conf.unset("sponge.tracker.report.interval");
        conf.set("sponge.tracker.report.keepalive", "100ms");
        cluster.add(SpongeServer.start(conf));
      }
      for (int round = 0; round < 3; round++) {
        Awaitility.await()
            .atMost(Duration.ofSeconds(15))
            .until(() -> !leader.batchSenders().isEmpty());
        String relay = leader.batchSenders().iterator().next();
        int connections = leader.firstFrames.size();
        leader.closeConnectionOf(relay);
        Awaitility.await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> leader.firstFrames.size() > connections);
        assertThat(leader.firstFrames)
            .as("the first frame of every connection, after %s reconnected", relay)
            .containsOnly(Opcode.REPORT);
      }
    }
  }

  /** Puts {@code leader} first in the trackers' election, as the servers read it. */
  private static void elect(ClusterFixture cluster, StandInLeader leader) throws Exception {
    ZooKeeperSettings zk =
        ZooKeeperSettings.from(ConfigCheck.validate(cluster.base(), new ClusterOptions()));
    CuratorFramework client = cluster.add(ZooKeeperClients.start(zk));
    LeaderLatch latch =
        cluster.add(new LeaderLatch(client, zk.layout().leaderLatch(), leader.endpoint));
    latch.start();
    assertThat(latch.await(10, TimeUnit.SECONDS)).as("the stand-in leads").isTrue();
  }

  /**
   * The leader of the release before batches, as far as servers see it: it takes each server's own
   * REPORT on its connection and pushes its rack's list to the rack's first two servers every 100
   * ms; a REPORTS frame is an unknown opcode to it, refused and closed. Or, when it takes batches,
   * a leader of this release as far as a relay's connection goes: it notes who sent batches.
   */
  private static final class StandInLeader implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(StandInLeader.class);

    final String endpoint;
    final AtomicInteger refusedBatches = new AtomicInteger();
    final List<Opcode> firstFrames = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final boolean takesBatches;
    private final Set<String> batchSenders = ConcurrentHashMap.newKeySet();
    private final NioEventLoopGroup group = new NioEventLoopGroup(1);
    private final Map<String, Channel> reporters = new LinkedHashMap<>(); // on the loop
    private final Map<String, Integer> free = new ConcurrentHashMap<>();
    private final Map<String, FreeReport> reports = new LinkedHashMap<>(); // on the loop
    private long sequence;

    StandInLeader(boolean takesBatches) {
      this.takesBatches = takesBatches;
      Channel server =
          new ServerBootstrap()
              .group(group)
              .channel(NioServerSocketChannel.class)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(new FrameDecoder(Frame.MAX_CONTROL_PAYLOAD, "old-leader"))
                          .addLast(new Connection());
                    }
                  })
              .bind("127.0.0.1", 0)
              .syncUninterruptibly()
              .channel();
      endpoint = "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
      group.scheduleWithFixedDelay(this::push, 100, 100, TimeUnit.MILLISECONDS);
    }

    Integer lastFree(String server) {
      return free.get(server);
    }

    /** Servers whose connection carried a batch (after their own report). */
    Set<String> batchSenders() {
      return batchSenders;
    }

    /** Closes the connection {@code server} reports on, as a network fault would. */
    void closeConnectionOf(String server) throws Exception {
      group.submit(() -> reporters.get(server).close()).get(5, TimeUnit.SECONDS);
      batchSenders.remove(server);
    }

    private void push() {
      if (reports.isEmpty()) {
        return;
      }
      List<FreeList.Entry> entries = new ArrayList<>();
      List<String> relays = new ArrayList<>();
      for (FreeReport report : reports.values()) {
        entries.add(report.entry());
        if (relays.size() < 2) {
          relays.add(report.endpoint);
        }
      }
      RelayedList list =
          new RelayedList(endpoint, ++sequence, relays, new FreeList(0, "/r1", entries));
      for (String relay : relays) {
        Channel channel = reporters.get(relay);
        ByteBuf frame =
            Responses.frame(
                channel.alloc(), Opcode.RACK_RELAY, 0, 0, Unpooled.wrappedBuffer(list.encode()));
        channel.writeAndFlush(frame, channel.voidPromise());
      }
    }

    @Override
    public void close() {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Connection extends RequestHandler {
      private final Handshake handshake = new Handshake(null);
      private boolean authenticated;
      private boolean seen; // a frame after HELLO
      private String reporter = "";
      private String peer = "?";

      Connection() {
        super(LOG);
      }

      @Override
      public void channelActive(ChannelHandlerContext ctx) {
        peer = String.valueOf(ctx.channel().remoteAddress());
        handshake.challenge(ctx, 1, endpoint);
      }

      @Override
      protected void channelRead0(ChannelHandlerContext ctx, InboundFrame frame)
          throws WireException {
        if (!authenticated) {
          handshake.welcome(ctx, frame.requestId, handshake.accept(ctx, frame, peer), new byte[0]);
          authenticated = true;
          return;
        }
        if (!seen) {
          seen = true;
          firstFrames.add(frame.opcode);
        }
        if (frame.opcode == Opcode.REPORTS && takesBatches) {
          if (!reporter.isEmpty()) {
            batchSenders.add(reporter);
          }
          return;
        }
        if (frame.opcode == Opcode.REPORT) {
          FreeReport report = FreeReport.decode(frame.payload.nioBuffer(), peer);
          reporter = report.endpoint;
          Channel channel = ctx.channel();
          reporters.put(report.endpoint, channel);
          reports.put(report.endpoint, report);
          free.put(report.endpoint, report.freeChunks);
          channel
              .closeFuture()
              .addListener(
                  f -> {
                    if (reporters.get(report.endpoint) == channel) {
                      reporters.remove(report.endpoint);
                      reports.remove(report.endpoint);
                    }
                  });
          return;
        }
        if (frame.opcode == Opcode.REPORTS) {
          refusedBatches.incrementAndGet();
        }
        // That release's decoder knows no opcode 27.
        throw new WireException(
            ErrorCode.MALFORMED_FRAME, peer, "unknown opcode " + frame.opcode.code());
      }

      @Override
      protected String peer() {
        return peer;
      }
    }
  }
}
