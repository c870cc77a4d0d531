package org.spongefiles.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ChunkHandles;
import org.spongefiles.core.wire.ChunkRange;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Hello;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.Processes;
import org.spongefiles.core.wire.ServerStats;
import org.spongefiles.testkit.RandomBytes;

/**
 * 100,000 random and mutated frames against a live server whose Netty detects leaks paranoidly: no
 * leak is reported, and a well-behaved client is served correctly afterwards.
 */
@Timeout(240)
class FuzzTest {
  private static final int FRAMES = 100_000;
  private static final int DEAD_PID = Integer.MAX_VALUE - 7;
  @RegisterExtension final ServerFixture fixture = new ServerFixture();
  private Path stderr;

  @BeforeEach
  void setUp() throws Exception {
    stderr = fixture.tempFile("fuzz", ".err");
  }

  @Test
  void randomAndMutatedFramesLeakNothingAndBreakNothing() throws Exception {
    Configuration conf = fixture.serverConf("node-fuzz", 64);
    ServerOptions.RECLAIM_INTERVAL.set(conf, Duration.ofMillis(500));
    ServerOptions.RECLAIM_GRACE.set(conf, Duration.ofSeconds(1));
    try (ServerProcess server =
        ServerProcess.start(conf, stderr, List.of("-Xmx256m"), LeakCheckedServer.class)) {
      ServerAddress address = ServerAddress.parse(server.endpoint);
      SplittableRandom random = new SplittableRandom(20141);
      List<byte[]> templates = templates(random);
      int sent = 0;
      int connections = 0;
      while (sent < FRAMES) {
        sent += fuzzOneConnection(address.socketAddress(), templates, random, FRAMES - sent);
        connections++;
      }
      assertThat(connections).isGreaterThan(100);

      // A well-behaved client is still served, byte for byte.
      try (RemoteConnection client =
          RemoteConnection.open(
              address,
              new ClientIdentity(
                  "", (int) ProcessHandle.current().pid(), 0, 1, "attempt_after_fuzz"),
              null,
              Duration.ofSeconds(5),
              Duration.ofSeconds(10))) {
        // Every chunk the fuzzing allocated belongs to a dead or unreachable owner: the sweeps
        // give the whole pool back, which also shows its free list stayed consistent.
        org.awaitility.Awaitility.await()
            .atMost(Duration.ofSeconds(15))
            .until(() -> client.stats().freeChunks == 64);
        ServerStats stats = client.stats();
        assertThat(stats.chunks).isEqualTo(64);
        ChunkHandle chunk = client.allocate(1).get(0);
        byte[] data = RandomBytes.array(5, 40_000);
        client.write(chunk, 100, ByteBuffer.wrap(data));
        ByteBuffer back = ByteBuffer.allocate(data.length);
        client.read(chunk, 100, back);
        assertThat(back.array()).isEqualTo(data);
        assertThat(client.free(List.of(chunk))).isEqualTo(1);
      }
      server.jvm().sendLine("check");
      assertThat(server.jvm().awaitLine("LEAKS", 60, TimeUnit.SECONDS)).isEqualTo("LEAKS 0");
    }
  }

  /** Valid frames to start from (after a valid HELLO, they reach the request handlers). */
  private static List<byte[]> templates(SplittableRandom random) {
    List<byte[]> frames = new ArrayList<>();
    frames.add(frame(Opcode.STATS, ByteBuffer.allocate(0)));
    frames.add(frame(Opcode.ALLOCATE, ByteBuffer.allocate(4).putInt(2).flip()));
    frames.add(
        frame(
            Opcode.READ,
            new ChunkRange(new ChunkHandle(random.nextInt(64), 1), 10, 1000).encodeRead()));
    ByteBuffer write = ByteBuffer.allocate(ChunkRange.WRITE_HEAD + 3000);
    new ChunkRange(new ChunkHandle(random.nextInt(64), 1), 0, 3000).putWriteHead(write);
    write.position(write.limit());
    frames.add(frame(Opcode.WRITE, write.flip()));
    frames.add(
        frame(
            Opcode.FREE,
            ChunkHandles.encode(List.of(new ChunkHandle(1, 1), new ChunkHandle(2, 1)))));
    frames.add(frame(Opcode.LIVENESS, Processes.encodeQuery(new long[] {1, DEAD_PID})));
    return frames;
  }

  private static byte[] hello() {
    return frame(
        Opcode.HELLO,
        new Hello("", DEAD_PID, 0, 3, "attempt_fuzz", new byte[0], new byte[32], new byte[0])
            .encode());
  }

  private static byte[] frame(Opcode opcode, ByteBuffer body) {
    ByteBuffer frame = ByteBuffer.allocate(Frame.HEADER_SIZE + body.remaining());
    Frame.putHeader(frame, opcode, 0, 1, body.remaining());
    frame.put(body.duplicate());
    return frame.array();
  }

  /** Sends frames on one connection until the server closes it or enough are sent. */
  private static int fuzzOneConnection(
      InetSocketAddress server, List<byte[]> templates, SplittableRandom random, int budget)
      throws IOException, InterruptedException {
    int sent = 0;
    try (Socket socket = new Socket()) {
      socket.connect(server, 5000);
      socket.setSoTimeout(5000);
      InputStream in = socket.getInputStream();
      Thread drain =
          new Thread(
              () -> {
                byte[] sink = new byte[8192];
                try {
                  while (in.read(sink) >= 0) {
                    // Responses are not checked; the server must just survive and stay correct.
                  }
                } catch (IOException e) {
                  // The server or this test closed the connection.
                }
              });
      drain.setDaemon(true);
      drain.start();
      OutputStream out = socket.getOutputStream();
      try {
        if (random.nextInt(10) < 8) {
          out.write(hello());
        }
        int frames = 1 + random.nextInt(60);
        for (int i = 0; i < frames && sent < budget; i++) {
          out.write(nextFrame(templates, random));
          sent++;
        }
        out.flush();
      } catch (IOException closedByServer) {
        sent++; // the frame that met the closed connection was still sent
      }
      socket.shutdownOutput();
      drain.join(2000);
    } catch (java.net.SocketException e) {
      // Reset by the server after a fault: expected.
    }
    return Math.max(sent, 1);
  }

  private static byte[] nextFrame(List<byte[]> templates, SplittableRandom random) {
    int kind = random.nextInt(10);
    byte[] template = templates.get(random.nextInt(templates.size()));
    if (kind < 3) {
      return template;
    }
    if (kind < 7) {
      byte[] mutated = template.clone();
      int flips = 1 + random.nextInt(4);
      for (int i = 0; i < flips; i++) {
        int at =
            random.nextInt(
                Math.min(mutated.length, i == 0 ? Frame.HEADER_SIZE + 24 : mutated.length));
        mutated[at] ^= (byte) (1 + random.nextInt(255));
      }
      if (random.nextInt(4) == 0) {
        return java.util.Arrays.copyOf(mutated, random.nextInt(mutated.length + 1));
      }
      return mutated;
    }
    if (kind < 9) {
      byte[] garbage = new byte[1 + random.nextInt(64)];
      random.nextBytes(garbage);
      return garbage;
    }
    // A header that promises more bytes than will ever come.
    byte[] liar = template.clone();
    ByteBuffer.wrap(liar).putInt(16, template.length + random.nextInt(1 << 16));
    return liar;
  }
}
