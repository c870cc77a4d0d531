package org.spongefiles.daemon.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.spongefiles.core.wire.Frame;
import org.spongefiles.core.wire.Opcode;
import org.spongefiles.core.wire.WireException;

/** The framing on an in-memory channel: split and coalesced input, bad headers. */
class FrameDecoderTest {

  private static ByteBuf frame(Opcode opcode, long id, byte[] payload) {
    ByteBuffer buffer = ByteBuffer.allocate(Frame.HEADER_SIZE + payload.length);
    Frame.putHeader(buffer, opcode, 0, id, payload.length);
    buffer.put(payload).flip();
    return Unpooled.wrappedBuffer(buffer);
  }

  @Test
  void framesSplitAnywhereAndCoalescedComeOutWhole() {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024, "test"));
    ByteBuf stream = Unpooled.buffer();
    stream.writeBytes(frame(Opcode.STATS, 1, new byte[0]));
    stream.writeBytes(frame(Opcode.ALLOCATE, 2, new byte[] {0, 0, 0, 3}));
    stream.writeBytes(frame(Opcode.READ, 3, new byte[20]));
    while (stream.isReadable()) {
      channel.writeInbound(stream.readRetainedSlice(Math.min(7, stream.readableBytes())));
    }
    stream.release();
    InboundFrame first = channel.readInbound();
    InboundFrame second = channel.readInbound();
    InboundFrame third = channel.readInbound();
    assertThat(first.opcode).isEqualTo(Opcode.STATS);
    assertThat(second.requestId).isEqualTo(2);
    assertThat(second.payload.getInt(0)).isEqualTo(3);
    assertThat(third.payload.readableBytes()).isEqualTo(20);
    assertThat((Object) channel.readInbound()).isNull();
    first.release();
    second.release();
    third.release();
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void anOversizedLengthIsRefusedFromTheHeaderAlone() {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024, "peer-1"));
    ByteBuffer header = ByteBuffer.allocate(Frame.HEADER_SIZE);
    Frame.putHeader(header, Opcode.WRITE, 0, 1, 2048);
    assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(header.flip())))
        .isInstanceOf(DecoderException.class)
        .hasCauseInstanceOf(WireException.class)
        .hasMessageContaining(
            "FRAME_TOO_LARGE from/to peer-1: payload of 2048 bytes (expected: 0 to 1024)");
    channel.finishAndReleaseAll();
  }
}
