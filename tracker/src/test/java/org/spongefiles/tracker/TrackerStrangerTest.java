package org.spongefiles.tracker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.wire.ErrorBody;
import org.spongefiles.core.wire.ErrorCode;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;

/**
 * The tracker's task port gives strangers little: a silent connection is closed at the handshake
 * deadline, and a frame larger than a HELLO before authentication is refused.
 */
class TrackerStrangerTest {

  private static ByteBuffer receive(DataInputStream in) throws Exception {
    byte[] header = new byte[Frame.HEADER_SIZE];
    in.readFully(header);
    ByteBuffer h = ByteBuffer.wrap(header);
    byte[] payload = new byte[h.getInt(16)];
    in.readFully(payload);
    return ByteBuffer.allocate(header.length + payload.length).put(header).put(payload).flip();
  }

  @Test
  void silentAndOversizedStrangersAreDisconnected() throws Exception {
    try (TestingServer zookeeper = new TestingServer();
        ClusterFixture cluster = new ClusterFixture(zookeeper.getConnectString())) {
      Configuration conf = cluster.trackerConf("t1", "1s");
      conf.set("sponge.tracker.handshake.timeout", "300ms");
      MemoryTracker tracker = MemoryTracker.start(conf);
      try (tracker) {
        try (Socket silent = new Socket("127.0.0.1", tracker.address().getPort())) {
          silent.setSoTimeout(5000);
          DataInputStream quiet = new DataInputStream(silent.getInputStream());
          assertThat(receive(quiet).get(5)).isEqualTo(Opcode.CHALLENGE.code());
          assertThat(quiet.read()).as("closed at the deadline").isEqualTo(-1);
        }
        // Opened once the silent one is gone, so its own handshake deadline has not passed yet.
        try (Socket oversized = new Socket("127.0.0.1", tracker.address().getPort())) {
          oversized.setSoTimeout(5000);
          DataInputStream big = new DataInputStream(oversized.getInputStream());
          assertThat(receive(big).get(5)).isEqualTo(Opcode.CHALLENGE.code());
          ByteBuffer header = ByteBuffer.allocate(Frame.HEADER_SIZE);
          Frame.putHeader(header, Opcode.HELLO, 0, 1, Frame.MAX_UNAUTHENTICATED_PAYLOAD + 1);
          oversized.getOutputStream().write(header.array());
          ByteBuffer error = receive(big);
          assertThat(error.get(5)).isEqualTo(Opcode.ERROR.code());
          error.position(Frame.HEADER_SIZE);
          assertThat(ErrorBody.decode(error, "tracker").code())
              .isEqualTo(ErrorCode.FRAME_TOO_LARGE);
          assertThat(big.read()).isEqualTo(-1);
        }
      }
    }
  }
}
